package main

import (
	"bytes"
	"errors"
	"flag"
	"io"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/runsvc/runsvc/internal/cli"
	"github.com/runsvc/runsvc/internal/testing/blackbox"
)

// envOf is a lookup over a fixed environment.
func envOf(env map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) { v, ok := env[k]; return v, ok }
}

// TestServeHelp: -h and --help print the CLI's style, not Go's flag
// dump: every flag once, with two dashes, in a group, with its variable.
func TestServeHelp(t *testing.T) {
	for _, arg := range []string{"-h", "--help"} {
		t.Run(arg, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			_, code, ok := parseServe([]string{arg}, &stdout, &stderr, envOf(nil))
			if ok || code != 0 || stderr.Len() != 0 {
				t.Fatalf("ok %v, exit %d, stderr %q; want help and exit 0", ok, code, stderr.String())
			}
			out := stdout.String()
			if !strings.HasPrefix(out, "Usage: runsvc serve [flags]\n") {
				t.Errorf("help starts %q", strings.SplitN(out, "\n", 2)[0])
			}
			if strings.Contains(out, "Usage of") || regexp.MustCompile(`(?m)^\s+-[a-z]`).MatchString(out) {
				t.Errorf("help has Go's default dump or single-dash flags:\n%s", out)
			}
			if strings.Contains(out, "Other flags") {
				t.Errorf("a flag is in no group:\n%s", out)
			}
			last := -1
			for _, g := range serveGroups {
				i := strings.Index(out, "\n"+g.Title+":\n")
				if i <= last {
					t.Errorf("group %q missing or out of order", g.Title)
				}
				last = i
			}
			serveFlags(&serveOptions{}).VisitAll(func(f *flag.Flag) {
				line := regexp.MustCompile(`(?m)^  --` + regexp.QuoteMeta(f.Name) + `( [A-Z:]+)?\n {8}.*\(env ` + cli.EnvName(envPrefix, f.Name) + `[,)]`)
				if n := len(line.FindAllString(out, -1)); n != 1 {
					t.Errorf("--%s with its variable appears %d times, want 1", f.Name, n)
				}
			})
		})
	}
}

// TestServeEveryFlagHasEnv: every serve flag is set by RUNSVC_<FLAG>, and
// the command line overrides it.
func TestServeEveryFlagHasEnv(t *testing.T) {
	serveFlags(&serveOptions{}).VisitAll(func(f *flag.Flag) {
		t.Run(f.Name, func(t *testing.T) {
			var v string
			switch f.Value.(flag.Getter).Get().(type) {
			case time.Duration:
				v = "7s"
			case bool:
				v = "true"
			case int:
				v = "7"
			default:
				v = "from-env-" + f.Name
			}
			o := &serveOptions{}
			fs := serveFlags(o)
			if err := cli.SetFromEnv(fs, envPrefix, envOf(map[string]string{cli.EnvName(envPrefix, f.Name): v})); err != nil {
				t.Fatal(err)
			}
			if got := fs.Lookup(f.Name).Value.String(); got != v {
				t.Errorf("after %s=%s, --%s is %q", cli.EnvName(envPrefix, f.Name), v, f.Name, got)
			}
		})
	})
}

// TestServeConfig: parseServe fills the configuration from the
// environment, then the flags.
func TestServeConfig(t *testing.T) {
	tests := []struct {
		name  string
		args  []string
		env   map[string]string
		check func(*serveOptions) bool
	}{
		{"fairness weights", []string{"--fairness-weights", "acme=3, beta=1"}, nil, func(o *serveOptions) bool {
			return o.cfg.FairnessWeights["acme"] == 3 && o.cfg.FairnessWeights["beta"] == 1 && len(o.cfg.FairnessWeights) == 2
		}},
		{"defaults", nil, nil, func(o *serveOptions) bool {
			return o.cfg.Listen == "127.0.0.1:50051" && o.cfg.Engine.LeaseTTL == 15*time.Second && o.cfg.Engine.MaxConcurrent == 256
		}},
		{"lease ttl from env", nil, map[string]string{"RUNSVC_LEASE_TTL": "3s"}, func(o *serveOptions) bool { return o.cfg.Engine.LeaseTTL == 3*time.Second }},
		{"flag overrides env", []string{"--lease-ttl", "4s"}, map[string]string{"RUNSVC_LEASE_TTL": "3s"}, func(o *serveOptions) bool { return o.cfg.Engine.LeaseTTL == 4*time.Second }},
		{"max concurrent from env", nil, map[string]string{"RUNSVC_MAX_CONCURRENT_RUNS": "9"}, func(o *serveOptions) bool { return o.cfg.Engine.MaxConcurrent == 9 }},
		{"empty env is unset", nil, map[string]string{"RUNSVC_LISTEN": "", "RUNSVC_DRAIN_TIMEOUT": ""}, func(o *serveOptions) bool {
			return o.cfg.Listen == "127.0.0.1:50051" && o.cfg.DrainTimeout == 20*time.Second
		}},
		{"bool from env", nil, map[string]string{"RUNSVC_DEBUG_ERRORS": "true", "RUNSVC_LOG_LEVEL": "debug"}, func(o *serveOptions) bool {
			return o.cfg.DebugErrors && o.logLevel == "debug"
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			o, code, ok := parseServe(tt.args, &stdout, &stderr, envOf(tt.env))
			if !ok {
				t.Fatalf("exit %d: %s", code, stderr.String())
			}
			if !tt.check(o) {
				t.Errorf("configuration %+v", o.cfg)
			}
		})
	}
}

// serveRefusals are command lines and environments serve must refuse with
// exit 2 and a line naming the flag or variable.
var serveRefusals = []struct {
	name  string
	args  []string
	env   map[string]string
	first string
}{
	{"unknown flag", []string{"--lisen", "127.0.0.1:1"}, nil, "runsvc serve: unknown flag --lisen; did you mean --listen?"},
	{"unknown flag, one dash", []string{"-lease-tll", "1s"}, nil, "runsvc serve: unknown flag --lease-tll; did you mean --lease-ttl?"},
	{"bad duration", []string{"--lease-ttl", "abc"}, nil, `runsvc serve: invalid value "abc" for --lease-ttl: want a duration such as 15s, 2m or 1h30m`},
	{"bad int", []string{"--pool-size=many"}, nil, `runsvc serve: invalid value "many" for --pool-size: want a whole number`},
	{"bad bool", []string{"--insecure-no-auth=perhaps"}, nil, `runsvc serve: invalid value "perhaps" for --insecure-no-auth: want true or false`},
	{"missing value", []string{"--data"}, nil, "runsvc serve: --data needs a value"},
	{"bad env duration", nil, map[string]string{"RUNSVC_LEASE_TTL": "5"}, `runsvc serve: invalid value "5" for RUNSVC_LEASE_TTL (--lease-ttl): want a duration such as 15s, 2m or 1h30m`},
	{"bad env bool", nil, map[string]string{"RUNSVC_DEBUG_ERRORS": "yes"}, `runsvc serve: invalid value "yes" for RUNSVC_DEBUG_ERRORS (--debug-errors): want true or false`},
	{"bad env int", nil, map[string]string{"RUNSVC_POOL_SIZE": "sixteen"}, `runsvc serve: invalid value "sixteen" for RUNSVC_POOL_SIZE (--pool-size): want a whole number`},
	{"bad env even with the flag given", []string{"--keepalive-time", "1s"}, map[string]string{"RUNSVC_KEEPALIVE_TIME": "1"}, `runsvc serve: invalid value "1" for RUNSVC_KEEPALIVE_TIME (--keepalive-time): want a duration such as 15s, 2m or 1h30m`},
	{"argument", []string{"now"}, nil, `runsvc serve: serve takes no arguments, got "now"`},
}

// TestServeRefusals: in process, each refusal is exit 2 with its line
// first, a usage hint last, and nothing on stdout.
func TestServeRefusals(t *testing.T) {
	for _, tt := range serveRefusals {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			_, code, ok := parseServe(tt.args, &stdout, &stderr, envOf(tt.env))
			if ok || code != 2 {
				t.Fatalf("ok %v, exit %d; want exit 2", ok, code)
			}
			lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
			if lines[0] != tt.first {
				t.Errorf("first stderr line\n got %q\nwant %q", lines[0], tt.first)
			}
			if lines[len(lines)-1] != `Run "runsvc serve -h" for usage.` || stdout.Len() != 0 {
				t.Errorf("stderr %q, stdout %q", stderr.String(), stdout.String())
			}
		})
	}
}

// TestBinaryFlags runs the built binary: serve's refusals, its help, and
// top-level and keys typos, with their exit codes.
func TestBinaryFlags(t *testing.T) {
	bin := blackbox.Binary(t)
	type want struct {
		code  int
		first string // first line of stderr, or of stdout when code is 0
	}
	tests := []struct {
		name string
		args []string
		env  map[string]string
		want want
	}{
		{"serve -h", []string{"serve", "-h"}, nil, want{0, "Usage: runsvc serve [flags]"}},
		{"versoin", []string{"versoin"}, nil, want{2, `runsvc: unknown command "versoin"; did you mean 'version'?`}},
		{"kyes", []string{"kyes", "mint"}, nil, want{2, `runsvc: unknown command "kyes"; did you mean 'keys'?`}},
		{"keys mnit", []string{"keys", "mnit"}, nil, want{2, `runsvc: unknown command "keys mnit"; did you mean 'keys mint'?`}},
		{"keys mint --tenat", []string{"keys", "mint", "--tenat", "t"}, nil, want{2, "runsvc keys mint: unknown flag --tenat; did you mean --tenant?"}},
	}
	for _, r := range serveRefusals {
		tests = append(tests, struct {
			name string
			args []string
			env  map[string]string
			want want
		}{"serve " + r.name, append([]string{"serve"}, r.args...), r.env, want{2, r.first}})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmd := exec.Command(bin, tt.args...)
			// A port nobody listens on, so nothing starts if a case is wrongly accepted.
			cmd.Env = []string{"RUNSVC_LISTEN=" + blackbox.FreePort(t), "RUNSVC_DATA=" + t.TempDir()}
			for k, v := range tt.env {
				cmd.Env = append(cmd.Env, k+"="+v)
			}
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			done := make(chan error, 1)
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			go func() { done <- cmd.Wait() }()
			var err error
			select {
			case err = <-done:
			case <-time.After(30 * time.Second):
				_ = cmd.Process.Kill()
				t.Fatalf("still running: it accepted %q", tt.args)
			}
			code := 0
			var exit *exec.ExitError
			if errors.As(err, &exit) {
				code = exit.ExitCode()
			}
			out := stderr.String()
			if tt.want.code == 0 {
				out = stdout.String()
			}
			if first, _, _ := strings.Cut(out, "\n"); code != tt.want.code || first != tt.want.first {
				t.Errorf("exit %d, first line %q; want %d, %q\nstderr: %s", code, first, tt.want.code, tt.want.first, stderr.String())
			}
		})
	}
}

// TestServeAllowNetwork: --allow-network is repeatable and comma-separated,
// RUNSVC_ALLOW_NETWORK gives the list when the flag is absent, and the
// first flag replaces the environment's list rather than adding to it.
func TestServeAllowNetwork(t *testing.T) {
	cases := []struct {
		name string
		args []string
		env  map[string]string
		want string
	}{
		{"default", nil, nil, ""},
		{"env", nil, map[string]string{"RUNSVC_ALLOW_NETWORK": "10.0.0.0/8, 127.0.0.0/8"}, "10.0.0.0/8,127.0.0.0/8"},
		{"flags", []string{"--allow-network", "10.0.0.0/8", "--allow-network", "127.0.0.0/8,::1/128"}, nil, "10.0.0.0/8,127.0.0.0/8,::1/128"},
		{"flag replaces env", []string{"--allow-network", "127.0.0.0/8"}, map[string]string{"RUNSVC_ALLOW_NETWORK": "10.0.0.0/8"}, "127.0.0.0/8"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			lookup := func(k string) (string, bool) { v, ok := c.env[k]; return v, ok }
			o, code, ok := parseServe(c.args, io.Discard, io.Discard, lookup)
			if !ok {
				t.Fatalf("parseServe exited %d", code)
			}
			if got := strings.Join(o.cfg.AllowNetworks, ","); got != c.want {
				t.Errorf("AllowNetworks = %q, want %q", got, c.want)
			}
		})
	}
}
