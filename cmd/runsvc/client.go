package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/runsvc/runsvc/internal/cli"
)

// client runs a client command (`runsvc spec ...`, `runsvc run ...`, or
// global flags followed by one) until it ends or a signal stops it.
func client(cmd string, args []string) int {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	return cli.Main(ctx, append([]string{cmd}, args...), os.Stdin, os.Stdout, os.Stderr)
}
