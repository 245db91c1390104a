package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"strings"

	"github.com/runsvc/runsvc/internal/auth"
	"github.com/runsvc/runsvc/internal/cli"
	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/server"
)

// securityFlags adds serve's TLS and authentication flags (issue 12).
func securityFlags(fs *flag.FlagSet, sec *server.Security) {
	fs.StringVar(&sec.KeysFile, "keys-file", "", "JSON keys `FILE` of hashed API keys and certificate identities, reloaded on change; without it runsvc serves only on loopback")
	fs.BoolVar(&sec.InsecureNoAuth, "insecure-no-auth", false, "serve without authentication on a non-loopback address: everyone who reaches the port is admin of the default tenant")
	fs.StringVar(&sec.TLSCert, "tls-cert", "", "server certificate PEM `FILE`, reloaded on change")
	fs.StringVar(&sec.TLSKey, "tls-key", "", "server private key PEM `FILE`")
	fs.StringVar(&sec.TLSClientCA, "tls-client-ca", "", "CA PEM `FILE` verifying client certificates (mTLS); identities map through the keys file")
}

// startFailed reports why serve could not start: a configuration refusal
// on stderr with exit status 2, anything else logged with status 1.
func startFailed(log *slog.Logger, err error) int {
	var ci *errs.ConfigurationInvalid
	if errors.As(err, &ci) {
		fmt.Fprintf(os.Stderr, "runsvc: CONFIGURATION_INVALID: %v\n", ci)
		return 2
	}
	log.Error("runsvc could not start", "err", err)
	return 1
}

const keysUsage = "Usage: runsvc keys mint --tenant T --role R [--role R2 ...] [--name N] [--max-concurrent-runs N] [--starts-per-minute N]"

// keys runs `runsvc keys mint --tenant T --role R [--role R2] [--name N]`.
func keys(args []string) int {
	if len(args) == 0 || args[0] != "mint" {
		if len(args) > 0 && args[0] != "-h" && args[0] != "--help" {
			hint := ""
			if s, ok := cli.Suggest(args[0], []string{"mint"}); ok {
				hint = fmt.Sprintf("; did you mean 'keys %s'?", s)
			}
			fmt.Fprintf(os.Stderr, "runsvc: unknown command \"keys %s\"%s\n", args[0], hint)
		}
		fmt.Fprintln(os.Stderr, keysUsage)
		return 2
	}
	fs := flag.NewFlagSet("keys mint", flag.ContinueOnError)
	tenant := fs.String("tenant", "", "the key's `TENANT`")
	name := fs.String("name", "", "a `NAME` for the key, shown in logs")
	var roles roleList
	fs.Var(&roles, "role", "a `ROLE`: "+strings.Join(auth.Roles, ", ")+" (repeat for more)")
	var q auth.Quota
	fs.IntVar(&q.MaxConcurrentRuns, "max-concurrent-runs", 0, "the tenant's unsettled Runs (`N`) allowed at once through this key (0: unbounded)")
	fs.IntVar(&q.StartsPerMinute, "starts-per-minute", 0, "StartRun calls (`N`) allowed per minute through this key (0: unbounded)")
	if err := cli.ParseFlags(fs, args[1:]); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Println(keysUsage)
			cli.PrintFlagGroups(os.Stdout, fs, "", []cli.FlagGroup{{Title: "Flags", Names: []string{"tenant", "role", "name", "max-concurrent-runs", "starts-per-minute"}}})
			return 0
		}
		fmt.Fprintf(os.Stderr, "runsvc keys mint: %v\n", err)
		return 2
	}
	key, entry, err := auth.Mint(*name, *tenant, roles)
	if err != nil {
		fmt.Fprintf(os.Stderr, "runsvc keys mint: %v\n", err)
		return 2
	}
	entry.Quota = q
	line, _ := json.Marshal(entry)
	fmt.Printf("API key (shown once; give it as --token or RUNSVC_TOKEN):\n  %s\n", key)
	fmt.Printf("Add this entry to the \"identities\" list of the keys file:\n  %s\n", line)
	return 0
}

// roleList is a repeatable --role flag.
type roleList []string

// String returns the roles joined with commas.
func (r *roleList) String() string { return strings.Join(*r, ",") }

// Set adds a role.
func (r *roleList) Set(v string) error {
	*r = append(*r, v)
	return nil
}
