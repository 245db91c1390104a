package errs

import "fmt"

// BusNotConfigured is a robot (Spec) without a bus asked to use one.
type BusNotConfigured struct {
	Robot string `meta:"robot"`
}

// Error returns the error's message.
func (e *BusNotConfigured) Error() string {
	return fmt.Sprintf("No bus configured on robot '%s'", e.Robot)
}

// ChannelNotFound is a bus channel no robot declares.
type ChannelNotFound struct {
	Channel string `meta:"channel"`
}

// Error returns the error's message.
func (e *ChannelNotFound) Error() string { return fmt.Sprintf("channel '%s' not found", e.Channel) }
