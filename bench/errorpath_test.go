package main

import (
	"context"
	"io"
	"log/slog"
	"testing"
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
			b.RunParallel(func(pb *testing.PB) {
				ctx := context.Background()
				for pb.Next() {
					if err := do(ctx); err != nil {
						b.Error(err)
						return
					}
				}
			})
		})
	}
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
		if c.err == nil || c.bypass {
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
