package server_test

import (
	"context"

	"google.golang.org/grpc"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
)

// rpc is one method of runsvc.v1 called with an empty request: enough to
// pass or fail the role gate, which runs before the handler looks at it.
type rpc struct {
	method string
	call   func(context.Context, *grpc.ClientConn) error
}

// recvFirst reads a stream's first message, or its refusal.
func recvFirst[T any](s interface{ Recv() (T, error) }, err error) error {
	if err != nil {
		return err
	}
	_, err = s.Recv()
	return err
}

// everyRPC lists every method of the six services.
func everyRPC() []rpc {
	return append(append(specRPCs(), runRPCs()...), otherRPCs()...)
}

func unary(method string, f func(context.Context, *grpc.ClientConn) error) rpc {
	return rpc{method: method, call: f}
}

func sp(c *grpc.ClientConn) runsvcv1.SpecServiceClient { return runsvcv1.NewSpecServiceClient(c) }
func rn(c *grpc.ClientConn) runsvcv1.RunServiceClient  { return runsvcv1.NewRunServiceClient(c) }
func tl(c *grpc.ClientConn) runsvcv1.ToolServiceClient { return runsvcv1.NewToolServiceClient(c) }
func dl(c *grpc.ClientConn) runsvcv1.DelegationServiceClient {
	return runsvcv1.NewDelegationServiceClient(c)
}
func mm(c *grpc.ClientConn) runsvcv1.MemoryServiceClient { return runsvcv1.NewMemoryServiceClient(c) }
func bs(c *grpc.ClientConn) runsvcv1.BusServiceClient    { return runsvcv1.NewBusServiceClient(c) }

func specRPCs() []rpc {
	return []rpc{
		unary("/runsvc.v1.SpecService/PublishSpec", func(ctx context.Context, c *grpc.ClientConn) error {
			_, err := sp(c).PublishSpec(ctx, &runsvcv1.PublishSpecRequest{})
			return err
		}),
		unary("/runsvc.v1.SpecService/GetSpec", func(ctx context.Context, c *grpc.ClientConn) error {
			_, err := sp(c).GetSpec(ctx, &runsvcv1.GetSpecRequest{})
			return err
		}),
		unary("/runsvc.v1.SpecService/ListSpecs", func(ctx context.Context, c *grpc.ClientConn) error {
			_, err := sp(c).ListSpecs(ctx, &runsvcv1.ListSpecsRequest{})
			return err
		}),
	}
}

func runRPCs() []rpc {
	return []rpc{
		unary("/runsvc.v1.RunService/StartRun", func(ctx context.Context, c *grpc.ClientConn) error {
			_, err := rn(c).StartRun(ctx, &runsvcv1.StartRunRequest{})
			return err
		}),
		unary("/runsvc.v1.RunService/GetRun", func(ctx context.Context, c *grpc.ClientConn) error {
			_, err := rn(c).GetRun(ctx, &runsvcv1.GetRunRequest{})
			return err
		}),
		unary("/runsvc.v1.RunService/ListRuns", func(ctx context.Context, c *grpc.ClientConn) error {
			_, err := rn(c).ListRuns(ctx, &runsvcv1.ListRunsRequest{})
			return err
		}),
		unary("/runsvc.v1.RunService/WatchRun", func(ctx context.Context, c *grpc.ClientConn) error {
			return recvFirst(rn(c).WatchRun(ctx, &runsvcv1.WatchRunRequest{}))
		}),
		unary("/runsvc.v1.RunService/StreamText", func(ctx context.Context, c *grpc.ClientConn) error {
			return recvFirst(rn(c).StreamText(ctx, &runsvcv1.StreamTextRequest{}))
		}),
		unary("/runsvc.v1.RunService/WaitRun", func(ctx context.Context, c *grpc.ClientConn) error {
			_, err := rn(c).WaitRun(ctx, &runsvcv1.WaitRunRequest{})
			return err
		}),
		unary("/runsvc.v1.RunService/SendMessage", func(ctx context.Context, c *grpc.ClientConn) error {
			_, err := rn(c).SendMessage(ctx, &runsvcv1.SendMessageRequest{})
			return err
		}),
		unary("/runsvc.v1.RunService/ResumeRun", func(ctx context.Context, c *grpc.ClientConn) error {
			_, err := rn(c).ResumeRun(ctx, &runsvcv1.ResumeRunRequest{})
			return err
		}),
		unary("/runsvc.v1.RunService/InterruptRun", func(ctx context.Context, c *grpc.ClientConn) error {
			_, err := rn(c).InterruptRun(ctx, &runsvcv1.InterruptRunRequest{})
			return err
		}),
		unary("/runsvc.v1.RunService/GetReport", func(ctx context.Context, c *grpc.ClientConn) error {
			_, err := rn(c).GetReport(ctx, &runsvcv1.GetReportRequest{})
			return err
		}),
	}
}

func otherRPCs() []rpc {
	return []rpc{
		unary("/runsvc.v1.ToolService/ListTools", func(ctx context.Context, c *grpc.ClientConn) error {
			_, err := tl(c).ListTools(ctx, &runsvcv1.ListToolsRequest{})
			return err
		}),
		unary("/runsvc.v1.ToolService/InvokeTool", func(ctx context.Context, c *grpc.ClientConn) error {
			_, err := tl(c).InvokeTool(ctx, &runsvcv1.InvokeToolRequest{})
			return err
		}),
		unary("/runsvc.v1.ToolService/ServeTools", func(ctx context.Context, c *grpc.ClientConn) error {
			s, err := tl(c).ServeTools(ctx)
			if err != nil {
				return err
			}
			_ = s.Send(&runsvcv1.ServeToolsRequest{})
			return recvFirst(s, nil)
		}),
		unary("/runsvc.v1.DelegationService/Delegate", func(ctx context.Context, c *grpc.ClientConn) error {
			_, err := dl(c).Delegate(ctx, &runsvcv1.DelegateRequest{})
			return err
		}),
		unary("/runsvc.v1.DelegationService/GetDelegation", func(ctx context.Context, c *grpc.ClientConn) error {
			_, err := dl(c).GetDelegation(ctx, &runsvcv1.GetDelegationRequest{})
			return err
		}),
		unary("/runsvc.v1.DelegationService/AwaitDelegation", func(ctx context.Context, c *grpc.ClientConn) error {
			_, err := dl(c).AwaitDelegation(ctx, &runsvcv1.AwaitDelegationRequest{})
			return err
		}),
		unary("/runsvc.v1.MemoryService/SetValue", func(ctx context.Context, c *grpc.ClientConn) error {
			_, err := mm(c).SetValue(ctx, &runsvcv1.SetValueRequest{})
			return err
		}),
		unary("/runsvc.v1.MemoryService/GetValue", func(ctx context.Context, c *grpc.ClientConn) error {
			_, err := mm(c).GetValue(ctx, &runsvcv1.GetValueRequest{})
			return err
		}),
		unary("/runsvc.v1.MemoryService/WatchMemory", func(ctx context.Context, c *grpc.ClientConn) error {
			return recvFirst(mm(c).WatchMemory(ctx, &runsvcv1.WatchMemoryRequest{}))
		}),
		unary("/runsvc.v1.BusService/SendMessage", func(ctx context.Context, c *grpc.ClientConn) error {
			_, err := bs(c).SendMessage(ctx, &runsvcv1.BusServiceSendMessageRequest{})
			return err
		}),
		unary("/runsvc.v1.BusService/Receive", func(ctx context.Context, c *grpc.ClientConn) error {
			return recvFirst(bs(c).Receive(ctx, &runsvcv1.ReceiveRequest{}))
		}),
		unary("/runsvc.v1.BusService/AcknowledgeMessages", func(ctx context.Context, c *grpc.ClientConn) error {
			_, err := bs(c).AcknowledgeMessages(ctx, &runsvcv1.AcknowledgeMessagesRequest{})
			return err
		}),
	}
}
