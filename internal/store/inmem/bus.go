package inmem

import (
	"context"
	"time"

	"github.com/runsvc/runsvc/internal/store"
)

// busRow is a message with its delivery state.
type busRow struct {
	msg      store.BusMessage
	outUntil time.Time
	acked    bool
}

// DeclareChannels implements store.Bus.
func (db *DB) DeclareChannels(ctx context.Context, tenant, owner string, channels []string) error {
	if err := db.lock(ctx); err != nil {
		return err
	}
	defer db.mu.Unlock()
	for _, c := range channels {
		key := tenant + "\x00" + c
		if db.channels[key] == nil {
			db.channels[key] = map[string]bool{}
		}
		db.channels[key][owner] = true
	}
	return nil
}

// ChannelExists implements store.Bus.
func (db *DB) ChannelExists(ctx context.Context, tenant, channel string) (bool, error) {
	if err := db.lock(ctx); err != nil {
		return false, err
	}
	defer db.mu.Unlock()
	return len(db.channels[tenant+"\x00"+channel]) > 0, nil
}

// SendBus implements store.Bus.
func (db *DB) SendBus(ctx context.Context, m store.BusMessage) error {
	if err := db.lock(ctx); err != nil {
		return err
	}
	m.Content, m.SendTime, m.DeliveryCount = clone(m.Content), stamp(m.SendTime), 0
	db.messages = append(db.messages, &busRow{msg: m})
	db.mu.Unlock()
	db.publish(store.BusTopic(m.Tenant, m.Channel))
	return nil
}

// DeliverBus implements store.Bus.
func (db *DB) DeliverBus(ctx context.Context, tenant, channel, inReplyTo string, now time.Time, ackTimeout time.Duration, limit int) ([]store.BusMessage, error) {
	if err := db.lock(ctx); err != nil {
		return nil, err
	}
	defer db.mu.Unlock()
	var out []store.BusMessage
	for _, r := range db.messages {
		if len(out) >= limit {
			break
		}
		m := r.msg
		if m.Tenant != tenant || m.Channel != channel || r.acked || r.outUntil.After(now) || (inReplyTo != "" && m.InReplyTo != inReplyTo) {
			continue
		}
		r.outUntil = stamp(now.Add(ackTimeout))
		r.msg.DeliveryCount++
		m = r.msg
		m.Content = clone(m.Content)
		out = append(out, m)
	}
	return out, nil
}

// AckBus implements store.Bus.
func (db *DB) AckBus(ctx context.Context, tenant, channel string, ids []string) (int, error) {
	if err := db.lock(ctx); err != nil {
		return 0, err
	}
	defer db.mu.Unlock()
	want := map[string]bool{}
	for _, id := range ids {
		want[id] = true
	}
	n := 0
	for _, r := range db.messages {
		if r.msg.Tenant == tenant && r.msg.Channel == channel && !r.acked && want[r.msg.MessageID] {
			r.acked = true
			n++
		}
	}
	return n, nil
}

// NextRedelivery implements store.Bus.
func (db *DB) NextRedelivery(ctx context.Context, tenant, channel string) (time.Time, bool, error) {
	if err := db.lock(ctx); err != nil {
		return time.Time{}, false, err
	}
	defer db.mu.Unlock()
	var at time.Time
	for _, r := range db.messages {
		if r.msg.Tenant == tenant && r.msg.Channel == channel && !r.acked && !r.outUntil.IsZero() && (at.IsZero() || r.outUntil.Before(at)) {
			at = r.outUntil
		}
	}
	return at, !at.IsZero(), nil
}
