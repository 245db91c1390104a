// Package errdetails is the one place where runsvc's typed errors (package
// errs) become google.rpc.Status values with standard details, and back.
//
// The table in table.go lists every reason with its code and details. A
// Mapper applies it; its interceptors apply it to every RPC, setting the
// grpc-retry-pushback-ms trailer, recovering panics and logging one line
// per failed call. Classify and FromStatus read a status back, for Go
// clients and tests.
//
// The rules the table and Mapper keep (DESIGN.md §4): exactly one
// ErrorInfo, first; RetryInfo if and only if retryable; at most one detail
// of each type; the whole error under WireBudget bytes as it goes on the
// wire, cutting a long BadRequest and shortening long strings but never
// changing the code or reason; no message ending in whitespace; nothing
// internal in what a client sees.
package errdetails
