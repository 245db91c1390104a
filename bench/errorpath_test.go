package main

import (
	"context"
	"io"
	"log/slog"
	"syscall"
	"testing"
	"time"

	"github.com/runsvc/runsvc/internal/errdetails"
)

// BenchmarkErrorPath measures one RPC of each error-path case (success,
// plain status, rich details through the real interceptor, and the
// diagnostics) from parallel clients on one connection:
//
//	go test ./bench -run '^$' -bench ErrorPath -benchmem
func BenchmarkErrorPath(b *testing.B) {
	es, err := startErrorServer(slog.New(slog.NewJSONHandler(io.Discard, nil)))
	if err != nil {
		b.Fatal(err)
	}
	defer es.srv.Stop()
	conn, err := dial(es.addr)
	if err != nil {
		b.Fatal(err)
	}
	defer conn.Close()
	for _, c := range errorCases() {
		do := errorCall(conn, c)
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetParallelism(8) // 16 clients on two cores, as the phase's c16
			cpu := processCPU()
			b.RunParallel(func(pb *testing.PB) {
				ctx := context.Background()
				for pb.Next() {
					if err := do(ctx); err != nil {
						b.Error(err)
						return
					}
				}
			})
			// CPU time per call, client and server together: on a shared
			// machine steadier than ns/op, and what bounds throughput once
			// the cores are busy.
			b.ReportMetric(float64((processCPU()-cpu).Nanoseconds())/float64(b.N), "cpu-ns/op")
		})
	}
}

// processCPU is the CPU time (user and system) the process has used.
func processCPU() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkMap measures mapping each case's error to its status, outside
// gRPC:
//
//	go test ./bench -run '^$' -bench Map -benchmem
func BenchmarkMap(b *testing.B) {
	es, err := startErrorServer(slog.New(slog.NewJSONHandler(io.Discard, nil)))
	if err != nil {
		b.Fatal(err)
	}
	defer es.srv.Stop()
	ctx := context.Background()
	for _, c := range errorCases() {
		if c.err == nil || c.bypass || c.chained {
			continue
		}
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_ = es.mapper.Map(ctx, c.err()).Status.Err()
			}
		})
	}
}

// BenchmarkChain measures the server's unary chain (Observe with the log
// reporter, the Mapper, Recover) around a handler returning each case's
// error, outside gRPC, logging as serve does (JSON at info, through the
// log sink) into a discarded file:
//
//	go test ./bench -run '^$' -bench Chain -benchmem
func BenchmarkChain(b *testing.B) {
	log, closeLog, err := benchLogger()
	if err != nil {
		b.Fatal(err)
	}
	defer closeLog()
	m := errdetails.New(errdetails.Options{Logger: log})
	for _, c := range errorCases() {
		if c.err == nil || c.bypass || c.quiet || c.chained {
			continue
		}
		call := chainCall(m, c)
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				call()
			}
		})
	}
}
