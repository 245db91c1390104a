// Package bus carries messages between robots (bus-enabled Specs) by
// channel. A message stays on its channel until a receiver acknowledges
// it; one delivered and not acknowledged in time is delivered again, so
// nothing is lost to a receiver that disconnects or crashes.
package bus

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/runsvc/runsvc/internal/clock"
	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/ids"
	"github.com/runsvc/runsvc/internal/spec/versions"
	"github.com/runsvc/runsvc/internal/store"
)

// Limits and defaults.
const (
	MaxContentBytes   = 256 << 10
	DefaultAckTimeout = 30 * time.Second
	MaxAckTimeout     = time.Hour
	deliverBatch      = 64
	idlePoll          = 5 * time.Second
)

// Store is what a Service keeps channels' messages in: store.Bus's
// operations but the declaring of channels, which publishing a Spec does
// (versions.Registry).
type Store interface {
	// ChannelExists, SendBus, DeliverBus, AckBus and NextRedelivery are
	// store.Bus's.
	ChannelExists(ctx context.Context, tenant, channel string) (bool, error)
	SendBus(ctx context.Context, m store.BusMessage) error
	DeliverBus(ctx context.Context, tenant, channel, inReplyTo string, now time.Time, ackTimeout time.Duration, limit int) ([]store.BusMessage, error)
	AckBus(ctx context.Context, tenant, channel string, ids []string) (int, error)
	NextRedelivery(ctx context.Context, tenant, channel string) (time.Time, bool, error)
	// Notifier wakes the receivers when a message is sent.
	Notifier() store.Notifier
}

// Service sends, delivers and acknowledges bus messages.
type Service struct {
	store Store
	specs *versions.Registry
	clock clock.Clock
}

// New returns a Service.
func New(s Store, reg *versions.Registry, clk clock.Clock) *Service {
	return &Service{store: s, specs: reg, clock: clk}
}

// Send sends content from the robot sender to a channel. A sender whose
// Spec has no bus is *errs.BusNotConfigured; an unknown channel is
// *errs.ChannelNotFound; content that is not JSON or too large is
// *errs.ValueNotPortable.
func (s *Service) Send(ctx context.Context, tenant, sender, channel string, content json.RawMessage, inReplyTo string) (store.BusMessage, error) {
	if sender == "" {
		return store.BusMessage{}, errs.BadField("sender", "is required: the sending robot's Spec name")
	}
	sv, err := s.specs.Get(ctx, tenant, sender, "")
	if err != nil {
		return store.BusMessage{}, err
	}
	if !sv.Bus.Enabled {
		return store.BusMessage{}, &errs.BusNotConfigured{Robot: sender}
	}
	if err := s.checkChannel(ctx, tenant, channel); err != nil {
		return store.BusMessage{}, err
	}
	switch {
	case len(content) == 0:
		return store.BusMessage{}, &errs.ValueNotPortable{Path: "content", Reason: "content is required"}
	case len(content) > MaxContentBytes:
		return store.BusMessage{}, &errs.ValueNotPortable{Path: "content", Reason: fmt.Sprintf("it is %d bytes; at most %d cross the process boundary", len(content), MaxContentBytes)}
	case !json.Valid(content):
		return store.BusMessage{}, &errs.ValueNotPortable{Path: "content", Reason: "it is not representable as JSON"}
	}
	now := s.clock.Now().UTC()
	m := store.BusMessage{
		Tenant: tenant, MessageID: ids.New("msg", now), Channel: channel, Sender: sender,
		Content: content, InReplyTo: inReplyTo, SendTime: now,
	}
	return m, s.store.SendBus(ctx, m)
}

func (s *Service) checkChannel(ctx context.Context, tenant, channel string) error {
	if channel == "" {
		return errs.BadField("channel", "is required")
	}
	ok, err := s.store.ChannelExists(ctx, tenant, channel)
	if err != nil {
		return err
	}
	if !ok {
		return &errs.ChannelNotFound{Channel: channel}
	}
	return nil
}

// Receive delivers a channel's unacknowledged messages, oldest first, then
// new ones as they come, until ctx ends or send fails. A delivered message
// comes back after ackTimeout unless acknowledged.
func (s *Service) Receive(ctx context.Context, tenant, channel, inReplyTo string, ackTimeout time.Duration, send func(store.BusMessage) error) error {
	if ackTimeout < 0 || ackTimeout > MaxAckTimeout {
		return errs.BadField("ack_timeout", "must be between 0 and %s", MaxAckTimeout)
	}
	if ackTimeout == 0 {
		ackTimeout = DefaultAckTimeout
	}
	if err := s.checkChannel(ctx, tenant, channel); err != nil {
		return err
	}
	sub := s.store.Notifier().Subscribe(store.BusTopic(tenant, channel))
	defer sub.Close()
	for {
		msgs, err := s.store.DeliverBus(ctx, tenant, channel, inReplyTo, s.clock.Now(), ackTimeout, deliverBatch)
		if err != nil {
			return err
		}
		for _, m := range msgs {
			if err := send(m); err != nil {
				return err
			}
		}
		if len(msgs) == deliverBatch {
			continue
		}
		wait := idlePoll
		if at, ok, err := s.store.NextRedelivery(ctx, tenant, channel); err == nil && ok && at.After(s.clock.Now()) {
			wait = min(wait, at.Sub(s.clock.Now()))
		}
		select {
		case <-sub.C():
		case <-s.clock.After(wait):
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// Acknowledge marks messages handled and returns how many were still
// unacknowledged.
func (s *Service) Acknowledge(ctx context.Context, tenant, channel string, ids []string) (int, error) {
	if err := s.checkChannel(ctx, tenant, channel); err != nil {
		return 0, err
	}
	if len(ids) == 0 {
		return 0, errs.BadField("message_ids", "name at least one message")
	}
	return s.store.AckBus(ctx, tenant, channel, ids)
}
