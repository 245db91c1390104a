package errs

import "fmt"

// AttemptsExhausted is a Run that failed because too many of its Attempts
// died: they ended without settling the Run or leaving it suspended (their
// process crashed, their lease was lost, their worker drained), and the
// server's --max-attempts allows no more. Attempts that suspended the Run
// (for a client tool, an approval, a question, children) are not counted.
type AttemptsExhausted struct {
	RunID string `meta:"runId"`
	Died  int    `meta:"diedAttempts"`
	Max   int    `meta:"maxAttempts"`
}

// Error returns the error's message.
func (e *AttemptsExhausted) Error() string {
	return fmt.Sprintf("run %s failed: %d of its attempts died (a crash, a lost lease or a drain), and the server allows %d (--max-attempts)", e.RunID, e.Died, e.Max)
}
