package cli_test

import (
	"bytes"
	"flag"
	"strings"
	"testing"
	"time"

	"github.com/runsvc/runsvc/internal/cli"
)

// TestTopLevelTypoSuggestions: a typo of one of the binary's own commands
// (version, keys, serve) or of errors suggests it, like a client command.
func TestTopLevelTypoSuggestions(t *testing.T) {
	c := client{t: t, addr: closedAddr(t)}
	tests := []struct {
		word, want string
	}{
		{"versoin", "version"},
		{"kyes", "keys"},
		{"erors", "errors"},
		{"serv", "serve"},
		{"hlep", "help"},
	}
	for _, tt := range tests {
		t.Run(tt.word, func(t *testing.T) {
			r := c.run(tt.word)
			if r.code != cli.ExitUsage {
				t.Fatalf("exit %d, want %d\n%s%s", r.code, cli.ExitUsage, r.stdout, r.stderr)
			}
			want := `runsvc: unknown command "` + tt.word + `"; did you mean '` + tt.want + `'?`
			if first, _, _ := strings.Cut(r.stderr, "\n"); first != want {
				t.Errorf("first stderr line\n got %q\nwant %q", first, want)
			}
		})
	}
}

// newSet is a flag set of one flag of each kind, as a command defines them.
func newSet() *flag.FlagSet {
	fs := flag.NewFlagSet("test", flag.ContinueOnError)
	fs.String("listen", "127.0.0.1:1", "listen `HOST:PORT`")
	fs.Duration("lease-ttl", 15*time.Second, "lease `DURATION`")
	fs.Int("pool-size", 16, "pool `N`")
	fs.Bool("debug", false, "debug")
	return fs
}

// TestParseFlags: unknown flags suggest the nearest, refused values name
// the flag with a double dash and say what it wants, and -h is ErrHelp.
func TestParseFlags(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string // "" for no error
	}{
		{"fine", []string{"--listen", "127.0.0.1:2", "--lease-ttl=3s", "--debug"}, ""},
		{"help", []string{"-h"}, flag.ErrHelp.Error()},
		{"typo", []string{"--lisen", "x"}, "unknown flag --lisen; did you mean --listen?"},
		{"nothing near", []string{"--zzzzzzzz"}, "unknown flag --zzzzzzzz"},
		{"bad duration", []string{"--lease-ttl", "abc"}, `invalid value "abc" for --lease-ttl: want a duration such as 15s, 2m or 1h30m`},
		{"bad int", []string{"--pool-size=x"}, `invalid value "x" for --pool-size: want a whole number`},
		{"bad bool", []string{"--debug=maybe"}, `invalid value "maybe" for --debug: want true or false`},
		{"missing value", []string{"--listen"}, "--listen needs a value"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := cli.ParseFlags(newSet(), tt.args)
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != tt.want {
				t.Errorf("ParseFlags(%q)\n got %q\nwant %q", tt.args, got, tt.want)
			}
		})
	}
}

// TestSetFromEnv: every flag reads its variable through its own parser; a
// refused value names the variable and the flag; empty counts as unset.
func TestSetFromEnv(t *testing.T) {
	tests := []struct {
		name    string
		env     map[string]string
		listen  string
		ttl     string
		wantErr string
	}{
		{"none", nil, "127.0.0.1:1", "15s", ""},
		{"set", map[string]string{"X_LISTEN": "0.0.0.0:9", "X_LEASE_TTL": "2m"}, "0.0.0.0:9", "2m0s", ""},
		{"empty is unset", map[string]string{"X_LISTEN": "", "X_LEASE_TTL": ""}, "127.0.0.1:1", "15s", ""},
		{"bad duration", map[string]string{"X_LEASE_TTL": "5"}, "", "", `invalid value "5" for X_LEASE_TTL (--lease-ttl): want a duration such as 15s, 2m or 1h30m`},
		{"bad bool", map[string]string{"X_DEBUG": "yes please"}, "", "", `invalid value "yes please" for X_DEBUG (--debug): want true or false`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fs := newSet()
			err := cli.SetFromEnv(fs, "X_", func(k string) (string, bool) { v, ok := tt.env[k]; return v, ok })
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Fatalf("err %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := fs.Lookup("listen").Value.String(); got != tt.listen {
				t.Errorf("listen %q, want %q", got, tt.listen)
			}
			if got := fs.Lookup("lease-ttl").Value.String(); got != tt.ttl {
				t.Errorf("lease-ttl %q, want %q", got, tt.ttl)
			}
		})
	}
}

// TestPrintFlagGroups: groups print in order in the CLI's style with each
// flag's variable and default; flags in no group come last.
func TestPrintFlagGroups(t *testing.T) {
	var b bytes.Buffer
	cli.PrintFlagGroups(&b, newSet(), "X_", []cli.FlagGroup{{Title: "Store flags", Names: []string{"pool-size"}}, {Title: "Net flags", Names: []string{"listen"}}})
	want := `
Store flags:
  --pool-size N
        pool N (env X_POOL_SIZE, default 16)

Net flags:
  --listen HOST:PORT
        listen HOST:PORT (env X_LISTEN, default 127.0.0.1:1)

Other flags:
  --debug
        debug (env X_DEBUG)
  --lease-ttl DURATION
        lease DURATION (env X_LEASE_TTL, default 15s)
`
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}
