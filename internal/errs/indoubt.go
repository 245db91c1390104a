package errs

import (
	"fmt"
	"reflect"
)

// ToolInDoubt is an at-most-once tool call that was started but has no
// recorded result: its process died, or it never answered, so the call
// may or may not have happened and runsvc does not make it again.
type ToolInDoubt struct {
	Tool   string `meta:"tool"`
	CallID string `meta:"callId"`
	Why    string `meta:"detail"`
}

// Error returns the error's message.
func (e *ToolInDoubt) Error() string {
	return fmt.Sprintf("tool %s call %s may or may not have happened: %s", e.Tool, e.CallID, e.Why)
}

func init() {
	e := &ToolInDoubt{}
	t := reflect.TypeOf(e).Elem()
	kinds[t.Name()] = func() error { return reflect.New(t).Interface().(error) }
	kindOf[reflect.TypeOf(e)] = t.Name()
}
