package service

import (
	"context"
	"errors"
	"fmt"

	"google.golang.org/grpc"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/auth"
	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/store"
)

type busServer struct {
	runsvcv1.UnimplementedBusServiceServer
	*Service
}

func (s busServer) SendMessage(ctx context.Context, req *runsvcv1.BusServiceSendMessageRequest) (*runsvcv1.BusServiceSendMessageResponse, error) {
	content, err := portableJSON("content", req.GetContent())
	if err != nil {
		return nil, err
	}
	if err := maySendAs(ctx, req.GetSender()); err != nil {
		return nil, err
	}
	m, err := s.bus.Send(ctx, tenantOf(ctx), req.GetSender(), req.GetChannel(), content, req.GetInReplyTo())
	if err != nil {
		return nil, err
	}
	return &runsvcv1.BusServiceSendMessageResponse{Message: busMessageToProto(m)}, nil
}

// maySendAs refuses a sender other than the caller's own identity: with
// authentication, a caller sends as the robot its keys file entry names
// (or lists in robots), an admin as any; without it, as any robot.
func maySendAs(ctx context.Context, sender string) error {
	id, ok := auth.FromContext(ctx)
	if !ok || sender == "" || id.MaySendAs(sender) {
		return nil
	}
	return &errs.AccessDenied{Subject: "bus sender " + sender,
		Reason: fmt.Sprintf("the caller %s may send only as itself or a robot its keys file entry lists", id.Name)}
}

func (s busServer) Receive(req *runsvcv1.ReceiveRequest, stream grpc.ServerStreamingServer[runsvcv1.ReceiveResponse]) error {
	ackTimeout, err := durationArg("ack_timeout", req.GetAckTimeout())
	if err != nil {
		return err
	}
	// The stream ends, OK, just before the caller's deadline.
	ctx, cancel := beforeDeadline(stream.Context())
	defer cancel()
	err = s.bus.Receive(ctx, tenantOf(ctx), req.GetChannel(), req.GetInReplyTo(), ackTimeout, func(m store.BusMessage) error {
		return stream.Send(&runsvcv1.ReceiveResponse{Message: busMessageToProto(m)})
	})
	if ctx.Err() != nil && stream.Context().Err() == nil && errors.Is(err, ctx.Err()) {
		return nil
	}
	return err
}

func (s busServer) AcknowledgeMessages(ctx context.Context, req *runsvcv1.AcknowledgeMessagesRequest) (*runsvcv1.AcknowledgeMessagesResponse, error) {
	n, err := s.bus.Acknowledge(ctx, tenantOf(ctx), req.GetChannel(), req.GetMessageIds())
	if err != nil {
		return nil, err
	}
	return &runsvcv1.AcknowledgeMessagesResponse{Acknowledged: int32(n)}, nil
}

func busMessageToProto(m store.BusMessage) *runsvcv1.BusMessage {
	return &runsvcv1.BusMessage{
		MessageId: m.MessageID, Channel: m.Channel, Sender: m.Sender, Content: toValue(m.Content),
		InReplyTo: m.InReplyTo, SendTime: ts(m.SendTime), DeliveryCount: int32(m.DeliveryCount),
	}
}
