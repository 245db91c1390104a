package testserver

import (
	"errors"
	"fmt"
	"io"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
)

// Register sends reg as the first message of a ServeTools stream and
// returns once runsvc acknowledged it, or an error saying what came instead.
func Register(stream runsvcv1.ToolService_ServeToolsClient, reg *runsvcv1.ServeToolsRequest_Register) error {
	if err := stream.Send(&runsvcv1.ServeToolsRequest{Message: &runsvcv1.ServeToolsRequest_Register_{Register: reg}}); err != nil {
		return err
	}
	first, err := stream.Recv()
	if err != nil || first.GetRegistered() == nil {
		return errors.Join(fmt.Errorf("registering worker %s: got %v", reg.GetWorkerName(), first), err)
	}
	return nil
}

// ServeCalls receives from stream until it ends and passes every Call it
// gets to handle, skipping other messages; it stops early when handle
// returns false.
func ServeCalls(stream runsvcv1.ToolService_ServeToolsClient, handle func(*runsvcv1.ServeToolsResponse_Call) bool) {
	for {
		msg, err := stream.Recv()
		if err != nil {
			return
		}
		if call := msg.GetCall(); call != nil && !handle(call) {
			return
		}
	}
}

// Drain receives from a server stream until it ends: nil when it ended
// cleanly (io.EOF), else the error that ended it.
func Drain[T any](stream interface{ Recv() (T, error) }) error {
	for {
		if _, err := stream.Recv(); err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
	}
}
