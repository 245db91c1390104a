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
	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/server"
)

// securityFlags adds serve's TLS and authentication flags (issue 12).
func securityFlags(fs *flag.FlagSet, sec *server.Security) {
	fs.StringVar(&sec.KeysFile, "keys-file", env("RUNSVC_KEYS_FILE", ""), "JSON keys file of hashed API keys and certificate identities, reloaded on change; without it runsvc serves only on loopback (env RUNSVC_KEYS_FILE)")
	fs.BoolVar(&sec.InsecureNoAuth, "insecure-no-auth", envBool("RUNSVC_INSECURE_NO_AUTH"), "serve without authentication on a non-loopback address: everyone who reaches the port is admin of the default tenant (env RUNSVC_INSECURE_NO_AUTH)")
	fs.StringVar(&sec.TLSCert, "tls-cert", env("RUNSVC_TLS_CERT", ""), "server certificate PEM file, reloaded on change (env RUNSVC_TLS_CERT)")
	fs.StringVar(&sec.TLSKey, "tls-key", env("RUNSVC_TLS_KEY", ""), "server private key PEM file (env RUNSVC_TLS_KEY)")
	fs.StringVar(&sec.TLSClientCA, "tls-client-ca", env("RUNSVC_TLS_CLIENT_CA", ""), "CA PEM file verifying client certificates (mTLS); identities map through the keys file (env RUNSVC_TLS_CLIENT_CA)")
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

// keys runs `runsvc keys mint --tenant T --role R [--role R2] [--name N]`.
func keys(args []string) int {
	if len(args) == 0 || args[0] != "mint" {
		fmt.Fprintln(os.Stderr, "usage: runsvc keys mint --tenant T --role R [--role R2 ...] [--name N] [--max-concurrent-runs N] [--starts-per-minute N]")
		return 2
	}
	fs := flag.NewFlagSet("keys mint", flag.ContinueOnError)
	tenant := fs.String("tenant", "", "the key's tenant")
	name := fs.String("name", "", "a name for the key, shown in logs")
	var roles roleList
	fs.Var(&roles, "role", "a role: "+strings.Join(auth.Roles, ", ")+" (repeat for more)")
	var q auth.Quota
	fs.IntVar(&q.MaxConcurrentRuns, "max-concurrent-runs", 0, "the tenant's unsettled Runs allowed at once through this key (0: unbounded)")
	fs.IntVar(&q.StartsPerMinute, "starts-per-minute", 0, "StartRun calls allowed per minute through this key (0: unbounded)")
	if err := fs.Parse(args[1:]); err != nil {
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
