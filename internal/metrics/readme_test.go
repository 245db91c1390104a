package metrics_test

import (
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/runsvc/runsvc/internal/clock"
	"github.com/runsvc/runsvc/internal/metrics"
	"github.com/runsvc/runsvc/internal/store/sqlite/sqlitetest"
)

// TestReadmeListsEveryMetric: the README's Operations section lists every
// runsvc_ metric the collectors register, and names no runsvc_ metric
// that does not exist.
func TestReadmeListsEveryMetric(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	ops := string(readme)
	start := strings.Index(ops, "## Operations")
	if start < 0 {
		t.Fatal("README.md has no Operations section")
	}
	ops = ops[start:]
	if end := strings.Index(ops[3:], "\n## "); end >= 0 {
		ops = ops[:end+3]
	}
	m := metrics.New(func(error) string { return "" })
	m.CountRuns(sqlitetest.Open(t), clock.Real{}, time.Second)
	registered := registeredNames(m.Registry())
	for name := range registered {
		t.Run(name, func(t *testing.T) {
			if !strings.Contains(ops, "`"+name+"`") {
				t.Errorf("the README's Operations section does not list %s", name)
			}
		})
	}
	for _, name := range regexp.MustCompile("`(runsvc_[a-z_]+)`").FindAllStringSubmatch(ops, -1) {
		if !registered[name[1]] {
			t.Errorf("the README lists %s, which runsvc does not register", name[1])
		}
	}
}

// registeredNames are the runsvc_ metric names reg describes.
func registeredNames(reg *prometheus.Registry) map[string]bool {
	descs := make(chan *prometheus.Desc)
	go func() {
		reg.Describe(descs)
		close(descs)
	}()
	fq := regexp.MustCompile(`fqName: "(runsvc_[a-z_]+)"`)
	out := map[string]bool{}
	for d := range descs {
		if m := fq.FindStringSubmatch(d.String()); m != nil {
			out[m[1]] = true
		}
	}
	return out
}
