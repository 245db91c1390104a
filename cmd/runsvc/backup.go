package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/runsvc/runsvc/internal/cli"
	"github.com/runsvc/runsvc/internal/store/sqlite"
)

const backupUsage = `Usage: runsvc backup [--data DIR] DEST

Write a consistent copy of the SQLite store in --data to the new file DEST,
while runsvc serve may be running on it (SQLite's VACUUM INTO: one read
transaction, so the copy is the store as of one commit and the server's
writes go on). It reads the file directly, so it runs on the server's
machine with access to --data; no RPC is involved. Restore by starting
runsvc serve with the copy as runsvc.db in an empty --data directory.
For a PostgreSQL store use pg_dump (see the README).
`

// backup is `runsvc backup`.
func backup(args []string) int {
	fs := flag.NewFlagSet("runsvc backup", flag.ContinueOnError)
	data := fs.String("data", "./runsvc-data", "data `DIR` of the SQLite store to copy")
	fail := func(err error) int {
		fmt.Fprintf(os.Stderr, "runsvc backup: %v\n", err)
		return 2
	}
	if err := cli.SetFromEnv(fs, envPrefix, cli.LookupEnv); err != nil {
		return fail(err)
	}
	if err := cli.ParseFlags(fs, args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Print(backupUsage)
			cli.PrintFlagGroups(os.Stdout, fs, envPrefix, []cli.FlagGroup{{Title: "Flags", Names: []string{"data"}}})
			return 0
		}
		return fail(err)
	}
	if fs.NArg() != 1 {
		fmt.Fprint(os.Stderr, backupUsage)
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := sqlite.Backup(ctx, *data, fs.Arg(0)); err != nil {
		fmt.Fprintf(os.Stderr, "runsvc backup: %v\n", err)
		return 1
	}
	fmt.Printf("backed up %s to %s\n", *data, fs.Arg(0))
	return 0
}
