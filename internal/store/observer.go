package store

import "time"

// Observer hears of one store operation once it returned: op is the
// Store method's name (CreateRun, Append, Claim...), d how long the call
// took and err what it returned. Each adapter calls the Observer its
// Options name once per call of every Store method but Notifier and
// Close, which touch no data: the store latency metric
// (runsvc_store_operation_duration_seconds). It must be quick and safe
// for concurrent use.
type Observer func(op string, d time.Duration, err error)
