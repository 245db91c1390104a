// Package replicas holds the tests of several runsvc replicas sharing one
// PostgreSQL store: takeover after SIGKILL, watchers following another
// replica's appends, store outages, and worker tools served to one replica
// by workers connected to another.
package replicas
