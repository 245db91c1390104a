package main

import (
	"bytes"
	"fmt"
	"os/exec"
	"sort"
	"strconv"
	"strings"
	"time"
)

// profileEntry is one line of `go tool pprof -top`.
type profileEntry struct {
	// Func is the function; flat is its own time, cum with its callees.
	Func    string  `json:"func"`
	FlatSec float64 `json:"flatSeconds"`
	FlatPct float64 `json:"flatPercent"`
	CumSec  float64 `json:"cumSeconds"`
	CumPct  float64 `json:"cumPercent"`
}

// profileGroup is the flat time of a group of packages.
type profileGroup struct {
	// Group names the packages; Pct is of all samples.
	Group   string  `json:"group"`
	FlatSec float64 `json:"flatSeconds"`
	Pct     float64 `json:"percent"`
}

// profileSummary is the CPU profile of the c16 Runs phase, read with
// `go tool pprof -top`.
type profileSummary struct {
	// File is the profile; TotalSec its samples in seconds.
	File     string  `json:"file"`
	TotalSec float64 `json:"totalSeconds"`
	// TopCum and TopFlat are the top 15 functions by cumulative and by
	// flat time.
	TopCum  []profileEntry `json:"topCumulative"`
	TopFlat []profileEntry `json:"topFlat"`
	// Groups is flat time by package group, largest first.
	Groups []profileGroup `json:"groups"`
	// Runsvc is the top 20 of runsvc's own functions by cumulative time.
	Runsvc []profileEntry `json:"runsvcCumulative"`
	// Selected are cumulative times of functions that tell where the time
	// goes (GC, allocation, fsync, JSON, protobuf, SQL).
	Selected []profileEntry `json:"selected"`
}

func summarizeProfile(file string) (*profileSummary, error) {
	cum, total, err := pprofTop(file, "-cum")
	if err != nil {
		return nil, err
	}
	flat, _, err := pprofTop(file)
	if err != nil {
		return nil, err
	}
	s := &profileSummary{File: file, TotalSec: total}
	s.TopCum = cum[:min(15, len(cum))]
	s.TopFlat = flat[:min(15, len(flat))]
	groups := map[string]float64{}
	for _, e := range flat {
		groups[packageGroup(e.Func)] += e.FlatSec
	}
	for g, sec := range groups {
		s.Groups = append(s.Groups, profileGroup{Group: g, FlatSec: sec, Pct: 100 * sec / total})
	}
	sort.Slice(s.Groups, func(i, j int) bool { return s.Groups[i].FlatSec > s.Groups[j].FlatSec })
	for _, e := range cum {
		if strings.HasPrefix(e.Func, "github.com/runsvc/runsvc/") && len(s.Runsvc) < 20 {
			s.Runsvc = append(s.Runsvc, e)
		}
	}
	for _, want := range selectedFuncs {
		for _, e := range cum {
			if e.Func == want {
				s.Selected = append(s.Selected, e)
				break
			}
		}
	}
	return s, nil
}

// selectedFuncs are functions whose cumulative time answers "where does
// the time go" at a glance.
var selectedFuncs = []string{
	"runtime.gcBgMarkWorker",
	"runtime.mallocgc",
	"syscall.fsync",
	"syscall.Fdatasync",
	"syscall.Syscall",
	"syscall.Syscall6",
	"internal/runtime/syscall.Syscall6",
	"database/sql.(*DB).QueryContext",
	"database/sql.(*DB).ExecContext",
	"database/sql.(*Tx).Commit",
	"database/sql.(*Tx).ExecContext",
	"modernc.org/sqlite.(*conn).exec",
	"modernc.org/sqlite.(*conn).query",
	"encoding/json.Marshal",
	"encoding/json.Unmarshal",
	"google.golang.org/protobuf/encoding/protojson.MarshalOptions.marshal",
	"google.golang.org/protobuf/encoding/protojson.UnmarshalOptions.unmarshal",
	"google.golang.org/protobuf/proto.MarshalOptions.marshal",
	"google.golang.org/protobuf/proto.UnmarshalOptions.unmarshal",
	"google.golang.org/grpc.(*Server).handleStream",
	"google.golang.org/grpc.(*ClientConn).Invoke",
	"github.com/jackc/pgx/v5.(*Conn).Exec",
}

// packageGroup names the group a function's package belongs to.
func packageGroup(fn string) string {
	pkg := fn
	if slash := strings.LastIndex(pkg, "/"); slash >= 0 {
		if dot := strings.Index(pkg[slash:], "."); dot >= 0 {
			pkg = pkg[:slash+dot]
		}
	} else if dot := strings.Index(pkg, "."); dot >= 0 {
		pkg = pkg[:dot]
	}
	switch {
	case strings.HasPrefix(pkg, "modernc.org/"):
		return "SQLite (modernc.org/sqlite, libc)"
	case strings.HasPrefix(pkg, "github.com/jackc/"):
		return "pgx"
	case pkg == "database/sql" || strings.HasPrefix(pkg, "database/"):
		return "database/sql"
	case strings.HasPrefix(pkg, "google.golang.org/grpc") || strings.HasPrefix(pkg, "golang.org/x/net/"):
		return "gRPC and HTTP/2"
	case strings.HasPrefix(pkg, "google.golang.org/protobuf/encoding/protojson"):
		return "protojson"
	case strings.HasPrefix(pkg, "google.golang.org/protobuf"):
		return "protobuf"
	case strings.HasPrefix(pkg, "encoding/json"):
		return "encoding/json"
	case strings.HasPrefix(pkg, "github.com/runsvc/runsvc/"):
		return "runsvc"
	case pkg == "syscall" || strings.HasSuffix(pkg, "/syscall") || strings.HasPrefix(pkg, "internal/poll"):
		return "syscalls"
	case pkg == "runtime" || strings.HasPrefix(pkg, "runtime/") || strings.HasPrefix(pkg, "internal/runtime"):
		return "Go runtime (GC, scheduler, malloc)"
	case pkg == "reflect" || pkg == "internal/abi":
		return "reflect"
	case pkg == "main":
		return "load generator and worker"
	}
	return "other (" + pkg + ")"
}

// pprofTop runs `go tool pprof -top` on a profile and parses every line.
func pprofTop(file string, extra ...string) ([]profileEntry, float64, error) {
	args := append([]string{"tool", "pprof", "-top", "-nodecount=100000", "-nodefraction=0"}, extra...)
	args = append(args, file)
	var stderr bytes.Buffer
	cmd := exec.Command("go", args...)
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, 0, fmt.Errorf("go tool pprof: %v: %s", err, stderr.String())
	}
	var (
		entries []profileEntry
		total   float64
		table   bool
	)
	for _, line := range strings.Split(string(out), "\n") {
		if strings.Contains(line, "Total samples =") {
			f := strings.Fields(line[strings.Index(line, "Total samples =")+len("Total samples ="):])
			if len(f) > 0 {
				total = seconds(f[0])
			}
		}
		if strings.HasPrefix(strings.TrimSpace(line), "flat") {
			table = true
			continue
		}
		f := strings.Fields(line)
		if !table || len(f) < 6 {
			continue
		}
		entries = append(entries, profileEntry{
			Func:    strings.Join(f[5:], " "),
			FlatSec: seconds(f[0]), FlatPct: percent(f[1]),
			CumSec: seconds(f[3]), CumPct: percent(f[4]),
		})
	}
	if len(entries) == 0 || total == 0 {
		return nil, 0, fmt.Errorf("go tool pprof printed no table:\n%s", out)
	}
	return entries, total, nil
}

func seconds(s string) float64 {
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0
	}
	return d.Seconds()
}

func percent(s string) float64 {
	v, _ := strconv.ParseFloat(strings.TrimSuffix(s, "%"), 64)
	return v
}
