package errs

import (
	"fmt"
	"time"
)

// RunDeadlineExceeded is a Run that passed its own deadline. It appears in
// a Run's failure only, never as an RPC error.
type RunDeadlineExceeded struct {
	RunID    string        `meta:"runId"`
	Deadline time.Duration `meta:"deadlineSeconds"`
}

// Error returns the error's message.
func (e *RunDeadlineExceeded) Error() string {
	return fmt.Sprintf("run %s exceeded its %ss deadline", e.RunID, formatSeconds(e.Deadline))
}

// AwaitTimeout is a blocking memory read whose key was not written in time.
// The wait applies to each missing key in turn; Key is the first that
// never came.
type AwaitTimeout struct {
	Key string `meta:"key"`
	// Namespace is the memory waited on: "ns/<namespace>" for a named
	// namespace, "family/<root run id>" for a Run family's memory.
	Namespace string        `meta:"namespace"`
	Wait      time.Duration `meta:"waitSeconds"`
	// MissingKeys lists every key still missing after waiting for each.
	MissingKeys []string `meta:"missingKeys"`
}

// Error returns the error's message.
func (e *AwaitTimeout) Error() string {
	if e.Namespace == "" { // a record stored before the namespace was kept
		return fmt.Sprintf("Timeout waiting for :%s after %s seconds", e.Key, formatSeconds(e.Wait))
	}
	return fmt.Sprintf("Timeout waiting for :%s in %s after %s seconds", e.Key, e.Namespace, formatSeconds(e.Wait))
}

// DelegationTimeout is a wait for a delegation that ran out; the child
// Run keeps going.
type DelegationTimeout struct {
	Name         string        `meta:"spec"`
	DelegationID string        `meta:"delegationId"`
	Timeout      time.Duration `meta:"timeoutSeconds"`
}

// Error returns the error's message.
func (e *DelegationTimeout) Error() string {
	return fmt.Sprintf("Delegation to '%s' timed out after %ss", e.Name, formatSeconds(e.Timeout))
}

func formatSeconds(d time.Duration) string { return formatAmount(d.Seconds()) }
