// Package replicas holds the tests of several runsvc replicas sharing one
// PostgreSQL store: takeover after SIGKILL, watchers following another
// replica's appends, and store outages.
package replicas
