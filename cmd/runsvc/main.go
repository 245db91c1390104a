// Command runsvc runs LLM agents durably behind a gRPC API (`runsvc serve`)
// and talks to a running runsvc from a terminal (`runsvc spec ...`,
// `runsvc run ...`).
package main

import (
	"fmt"
	"os"
)

const usage = `runsvc runs LLM agents durably behind a gRPC API.

Usage:
  runsvc serve [flags]       start the service (see runsvc serve -h)
  runsvc spec ...            publish and read Specs; spec eval replays recorded Runs on a candidate Version
  runsvc run ...             start, watch, resume, interrupt and read Runs
  runsvc tool ...            list, invoke and serve tools
  runsvc delegate ...        start a child Run of a delegate Spec and await it
  runsvc memory ...          read, write and watch the memory Runs share
  runsvc bus ...             send and receive messages between Runs
  runsvc thread ...          list and show threads: conversations of Runs
  runsvc schedule ...        create, list, pause, resume, delete and trigger schedules that start Runs
  runsvc webhook ...         subscribe URLs to Run events (Standard Webhooks), deliveries, dead letters
  runsvc errors [--json]     print the error catalogue: every reason, its code and retry bit
  runsvc version             print the version, commit and Go version (also --version)
  runsvc keys mint ...       mint an API key and print its keys-file entry
  runsvc backup DEST         copy the SQLite store consistently while it serves (see runsvc backup -h)

Client flags, before or after the command:
  --addr HOST:PORT           runsvc's address (env RUNSVC_ADDR, default 127.0.0.1:50051)
  --json                     print protojson, one object per line, and errors as JSON
  --timeout D                how long one call may take (default 30s)
  --tls, --ca FILE           dial with TLS, trusting FILE's CA (env RUNSVC_TLS, RUNSVC_CA)
  --cert FILE, --key FILE    a client certificate for mTLS (env RUNSVC_CERT, RUNSVC_KEY)
  --token KEY                an API key, sent as a bearer token (env RUNSVC_TOKEN)

Run "runsvc <command> -h" for a command's subcommands and flags.
`

func main() {
	if len(os.Args) < 2 {
		fmt.Fprint(os.Stderr, usage)
		os.Exit(2)
	}
	switch cmd, args := os.Args[1], os.Args[2:]; cmd {
	case "serve":
		os.Exit(serve(args))
	case "version", "--version":
		printVersion(os.Stdout)
	case "keys":
		os.Exit(keys(args))
	case "backup":
		os.Exit(backup(args))
	case "help", "-h", "--help":
		fmt.Print(usage)
	default:
		os.Exit(client(cmd, args))
	}
}
