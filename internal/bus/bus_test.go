package bus_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/runsvc/runsvc/internal/bus"
	"github.com/runsvc/runsvc/internal/clock"
	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/spec"
	"github.com/runsvc/runsvc/internal/spec/versions"
	"github.com/runsvc/runsvc/internal/store"
	"github.com/runsvc/runsvc/internal/store/sqlite"
)

const tenant = store.DefaultTenant

func ctxT(t *testing.T) context.Context {
	t.Helper()
	c, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	return c
}

func robot(name string, enabled bool, channels ...string) spec.Spec {
	return spec.Spec{
		Name:  name,
		Model: spec.Model{Provider: spec.ProviderScripted, Script: []spec.Turn{{Text: "ok"}}},
		Bus:   spec.Bus{Enabled: enabled, Channels: channels},
	}
}

// open returns a bus over a fresh SQLite store with published robots:
// dispatcher (bus, channel "alerts"), worker (bus, no extra channels),
// quiet (no bus), and, in tenant acme, outsider (bus, channel "secret").
func open(t *testing.T) *bus.Service {
	t.Helper()
	db, err := sqlite.Open(t.TempDir(), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	reg := versions.New(db, clock.Real{}, versions.Options{})
	for _, p := range []struct {
		tenant string
		spec   spec.Spec
	}{
		{tenant, robot("dispatcher", true, "alerts")},
		{tenant, robot("worker", true)},
		{tenant, robot("quiet", false)},
		{"acme", robot("outsider", true, "secret")},
	} {
		if _, _, err := reg.Publish(ctxT(t), p.tenant, p.spec); err != nil {
			t.Fatalf("publishing %s: %v", p.spec.Name, err)
		}
	}
	return bus.New(db, reg, clock.Real{})
}

func TestSend(t *testing.T) {
	b := open(t)
	tests := []struct {
		name    string
		tenant  string
		sender  string
		channel string
		content json.RawMessage
		// check inspects the error; nil means success.
		check func(t *testing.T, err error)
	}{
		{name: "to a declared channel", tenant: tenant, sender: "dispatcher", channel: "alerts", content: json.RawMessage(`{"level":"high"}`)},
		{name: "to a robot's own channel", tenant: tenant, sender: "dispatcher", channel: "worker", content: json.RawMessage(`"do it"`)},
		{name: "to its own channel", tenant: tenant, sender: "worker", channel: "worker", content: json.RawMessage(`1`)},
		{name: "sender without a bus", tenant: tenant, sender: "quiet", channel: "alerts", content: json.RawMessage(`1`), check: func(t *testing.T, err error) {
			var bnc *errs.BusNotConfigured
			if !errors.As(err, &bnc) || bnc.Robot != "quiet" {
				t.Fatalf("Send = %T %v, want *errs.BusNotConfigured for quiet", err, err)
			}
			if err.Error() != "No bus configured on robot 'quiet'" {
				t.Errorf("Error() = %q", err.Error())
			}
		}},
		{name: "unknown sender", tenant: tenant, sender: "ghost", channel: "alerts", content: json.RawMessage(`1`), check: specNotFound("ghost")},
		{name: "sender of another tenant", tenant: tenant, sender: "outsider", channel: "alerts", content: json.RawMessage(`1`), check: specNotFound("outsider")},
		{name: "missing sender", tenant: tenant, sender: "", channel: "alerts", content: json.RawMessage(`1`), check: badField("sender")},
		{name: "unknown channel", tenant: tenant, sender: "dispatcher", channel: "nowhere", content: json.RawMessage(`1`), check: channelNotFound("nowhere")},
		{name: "channel of another tenant", tenant: tenant, sender: "dispatcher", channel: "secret", content: json.RawMessage(`1`), check: channelNotFound("secret")},
		{name: "a robot without a bus has no channel", tenant: tenant, sender: "dispatcher", channel: "quiet", content: json.RawMessage(`1`), check: channelNotFound("quiet")},
		{name: "missing channel", tenant: tenant, sender: "dispatcher", channel: "", content: json.RawMessage(`1`), check: badField("channel")},
		{name: "empty content", tenant: tenant, sender: "dispatcher", channel: "alerts", content: nil, check: notPortable},
		{name: "content not JSON", tenant: tenant, sender: "dispatcher", channel: "alerts", content: json.RawMessage(`{oops`), check: notPortable},
		{name: "content too large", tenant: tenant, sender: "dispatcher", channel: "alerts", content: json.RawMessage(`"` + strings.Repeat("x", bus.MaxContentBytes-1) + `"`), check: notPortable},
		{name: "content of the largest size", tenant: tenant, sender: "dispatcher", channel: "alerts", content: json.RawMessage(`"` + strings.Repeat("x", bus.MaxContentBytes-2) + `"`)},
		{name: "in the other tenant", tenant: "acme", sender: "outsider", channel: "secret", content: json.RawMessage(`1`)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := b.Send(ctxT(t), tt.tenant, tt.sender, tt.channel, tt.content, "")
			if tt.check != nil {
				if err == nil {
					t.Fatalf("Send succeeded, want an error")
				}
				tt.check(t, err)
				return
			}
			if err != nil {
				t.Fatalf("Send = %v", err)
			}
			if !strings.HasPrefix(m.MessageID, "msg_") || m.Channel != tt.channel || m.Sender != tt.sender || m.Tenant != tt.tenant ||
				string(m.Content) != string(tt.content) || m.SendTime.IsZero() {
				t.Errorf("message = %+v", m)
			}
		})
	}
}

func specNotFound(name string) func(*testing.T, error) {
	return func(t *testing.T, err error) {
		t.Helper()
		var nf *errs.SpecNotFound
		if !errors.As(err, &nf) || nf.Name != name {
			t.Fatalf("error = %T %v, want *errs.SpecNotFound for %s", err, err, name)
		}
	}
}

func channelNotFound(channel string) func(*testing.T, error) {
	return func(t *testing.T, err error) {
		t.Helper()
		var cnf *errs.ChannelNotFound
		if !errors.As(err, &cnf) || cnf.Channel != channel {
			t.Fatalf("error = %T %v, want *errs.ChannelNotFound for %s", err, err, channel)
		}
	}
}

func badField(field string) func(*testing.T, error) {
	return func(t *testing.T, err error) {
		t.Helper()
		var ir *errs.InvalidRequest
		if !errors.As(err, &ir) || len(ir.Violations) != 1 || ir.Violations[0].Field != field {
			t.Fatalf("error = %T %v, want *errs.InvalidRequest on %s", err, err, field)
		}
	}
}

func notPortable(t *testing.T, err error) {
	t.Helper()
	var vp *errs.ValueNotPortable
	if !errors.As(err, &vp) || vp.Path != "content" || vp.Reason == "" {
		t.Fatalf("error = %T %v, want *errs.ValueNotPortable at content", err, err)
	}
}

// delivery is a message Receive handed over, and when.
type delivery struct {
	msg store.BusMessage
	at  time.Time
}

// receiver runs Receive in the background.
type receiver struct {
	got  chan delivery
	done chan error
	stop context.CancelFunc
}

func receive(t *testing.T, b *bus.Service, tenant, channel, inReplyTo string, ackTimeout time.Duration) *receiver {
	t.Helper()
	ctx, cancel := context.WithCancel(ctxT(t))
	r := &receiver{got: make(chan delivery, 100), done: make(chan error, 1), stop: cancel}
	go func() {
		r.done <- b.Receive(ctx, tenant, channel, inReplyTo, ackTimeout, func(m store.BusMessage) error {
			r.got <- delivery{m, time.Now()}
			return nil
		})
	}()
	t.Cleanup(func() {
		cancel()
		<-r.done
	})
	return r
}

func (r *receiver) next(t *testing.T) delivery {
	t.Helper()
	select {
	case d := <-r.got:
		return d
	case err := <-r.done:
		t.Fatalf("Receive ended: %v", err)
	case <-time.After(15 * time.Second):
		t.Fatalf("nothing delivered")
	}
	return delivery{}
}

// none asserts nothing is delivered for d.
func (r *receiver) none(t *testing.T, d time.Duration) {
	t.Helper()
	select {
	case got := <-r.got:
		t.Fatalf("delivered %s (%s), want nothing", got.msg.MessageID, got.msg.Content)
	case <-time.After(d):
	}
}

func send(t *testing.T, b *bus.Service, sender, channel, content, inReplyTo string) store.BusMessage {
	t.Helper()
	m, err := b.Send(ctxT(t), tenant, sender, channel, json.RawMessage(content), inReplyTo)
	if err != nil {
		t.Fatalf("Send = %v", err)
	}
	return m
}

func TestReceiveOldestFirstThenLive(t *testing.T) {
	b := open(t)
	var sent []store.BusMessage
	for _, c := range []string{`1`, `2`, `3`} {
		sent = append(sent, send(t, b, "dispatcher", "alerts", c, ""))
	}
	send(t, b, "dispatcher", "worker", `"other channel"`, "")
	r := receive(t, b, tenant, "alerts", "", time.Hour)
	for i, want := range sent {
		d := r.next(t)
		if d.msg.MessageID != want.MessageID || string(d.msg.Content) != string(want.Content) {
			t.Fatalf("delivery %d = %s (%s), want %s (%s)", i, d.msg.MessageID, d.msg.Content, want.MessageID, want.Content)
		}
		if d.msg.DeliveryCount != 1 || d.msg.Sender != "dispatcher" || d.msg.Channel != "alerts" {
			t.Errorf("delivery %d = %+v, want first delivery from dispatcher on alerts", i, d.msg)
		}
	}
	live := send(t, b, "worker", "alerts", `"live"`, "")
	if d := r.next(t); d.msg.MessageID != live.MessageID {
		t.Fatalf("live delivery = %s, want %s", d.msg.MessageID, live.MessageID)
	}
	r.none(t, 100*time.Millisecond)
}

func TestReceiveRedeliversAfterAckTimeout(t *testing.T) {
	b := open(t)
	const ackTimeout = 300 * time.Millisecond
	m := send(t, b, "dispatcher", "alerts", `{"n":1}`, "")
	start := time.Now()
	r := receive(t, b, tenant, "alerts", "", ackTimeout)
	first := r.next(t)
	if first.msg.MessageID != m.MessageID || first.msg.DeliveryCount != 1 {
		t.Fatalf("first delivery = %+v", first.msg)
	}
	second := r.next(t)
	if second.msg.MessageID != m.MessageID {
		t.Fatalf("second delivery = %s, want %s again", second.msg.MessageID, m.MessageID)
	}
	if second.msg.DeliveryCount <= first.msg.DeliveryCount {
		t.Errorf("delivery count went from %d to %d, want higher", first.msg.DeliveryCount, second.msg.DeliveryCount)
	}
	// The first delivery was made after start, so its ack timeout ends no
	// earlier than start+ackTimeout.
	if gap := second.at.Sub(start); gap < ackTimeout {
		t.Errorf("redelivered %v after receiving started, before the %v ack timeout", gap, ackTimeout)
	}
	third := r.next(t)
	if third.msg.MessageID != m.MessageID || third.msg.DeliveryCount <= second.msg.DeliveryCount {
		t.Errorf("third delivery = %s count %d, want %s count above %d", third.msg.MessageID, third.msg.DeliveryCount, m.MessageID, second.msg.DeliveryCount)
	}
}

func TestAcknowledge(t *testing.T) {
	b := open(t)
	const ackTimeout = 700 * time.Millisecond
	m1 := send(t, b, "dispatcher", "alerts", `1`, "")
	m2 := send(t, b, "dispatcher", "alerts", `2`, "")
	r := receive(t, b, tenant, "alerts", "", ackTimeout)
	if d := r.next(t); d.msg.MessageID != m1.MessageID {
		t.Fatalf("first = %s, want %s", d.msg.MessageID, m1.MessageID)
	}
	if d := r.next(t); d.msg.MessageID != m2.MessageID {
		t.Fatalf("second = %s, want %s", d.msg.MessageID, m2.MessageID)
	}

	tests := []struct {
		name    string
		channel string
		ids     []string
		want    int
		check   func(*testing.T, error)
	}{
		{name: "acknowledges the first", channel: "alerts", ids: []string{m1.MessageID}, want: 1},
		{name: "again is nothing", channel: "alerts", ids: []string{m1.MessageID}, want: 0},
		{name: "unknown ids count nothing", channel: "alerts", ids: []string{"msg_unknown"}, want: 0},
		{name: "ids on another channel count nothing", channel: "worker", ids: []string{m2.MessageID}, want: 0},
		{name: "no ids", channel: "alerts", ids: nil, check: badField("message_ids")},
		{name: "unknown channel", channel: "nowhere", ids: []string{m2.MessageID}, check: channelNotFound("nowhere")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n, err := b.Acknowledge(ctxT(t), tenant, tt.channel, tt.ids)
			if tt.check != nil {
				tt.check(t, err)
				return
			}
			if err != nil || n != tt.want {
				t.Fatalf("Acknowledge = %d, %v; want %d", n, err, tt.want)
			}
		})
	}

	// m2 was not acknowledged and comes back; m1 never does.
	d := r.next(t)
	if d.msg.MessageID != m2.MessageID || d.msg.DeliveryCount != 2 {
		t.Fatalf("redelivery = %s count %d, want %s count 2", d.msg.MessageID, d.msg.DeliveryCount, m2.MessageID)
	}
	if n, err := b.Acknowledge(ctxT(t), tenant, "alerts", []string{m2.MessageID, m1.MessageID}); err != nil || n != 1 {
		t.Fatalf("Acknowledge(m2, m1) = %d, %v; want 1", n, err)
	}
	r.none(t, 2*ackTimeout)
}

func TestReceiveFilters(t *testing.T) {
	b := open(t)
	question := send(t, b, "dispatcher", "worker", `"question"`, "")
	send(t, b, "worker", "alerts", `"unrelated"`, "")
	reply := send(t, b, "worker", "alerts", `"answer"`, question.MessageID)
	r := receive(t, b, tenant, "alerts", question.MessageID, time.Hour)
	d := r.next(t)
	if d.msg.MessageID != reply.MessageID || d.msg.InReplyTo != question.MessageID {
		t.Fatalf("delivered %+v, want the reply %s", d.msg, reply.MessageID)
	}
	r.none(t, 100*time.Millisecond)
}

func TestReceiveOneReceiverPerMessage(t *testing.T) {
	b := open(t)
	r1 := receive(t, b, tenant, "alerts", "", time.Hour)
	r2 := receive(t, b, tenant, "alerts", "", time.Hour)
	const n = 10
	for range n {
		send(t, b, "dispatcher", "alerts", `1`, "")
	}
	seen := map[string]int{}
	for range n {
		var d delivery
		select {
		case d = <-r1.got:
		case d = <-r2.got:
		case <-time.After(15 * time.Second):
			t.Fatalf("only %d of %d messages delivered", len(seen), n)
		}
		seen[d.msg.MessageID]++
	}
	for id, c := range seen {
		if c != 1 {
			t.Errorf("message %s delivered %d times within its ack timeout", id, c)
		}
	}
	r1.none(t, 100*time.Millisecond)
	r2.none(t, 0)
}

func TestReceiveErrors(t *testing.T) {
	b := open(t)
	boom := errors.New("stream broken")
	send(t, b, "dispatcher", "alerts", `1`, "")
	tests := []struct {
		name       string
		channel    string
		ackTimeout time.Duration
		send       func(store.BusMessage) error
		check      func(*testing.T, error)
	}{
		{name: "negative ack timeout", channel: "alerts", ackTimeout: -time.Second, check: badField("ack_timeout")},
		{name: "ack timeout over an hour", channel: "alerts", ackTimeout: bus.MaxAckTimeout + time.Second, check: badField("ack_timeout")},
		{name: "unknown channel", channel: "nowhere", check: channelNotFound("nowhere")},
		{name: "missing channel", channel: "", check: badField("channel")},
		{name: "send's error ends it", channel: "alerts", send: func(store.BusMessage) error { return boom }, check: func(t *testing.T, err error) {
			if !errors.Is(err, boom) {
				t.Fatalf("Receive = %v, want send's error", err)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := tt.send
			if s == nil {
				s = func(store.BusMessage) error { return nil }
			}
			tt.check(t, b.Receive(ctxT(t), tenant, tt.channel, "", tt.ackTimeout, s))
		})
	}
	t.Run("the caller's cancellation ends it", func(t *testing.T) {
		ctx, cancel := context.WithCancel(ctxT(t))
		done := make(chan error, 1)
		go func() {
			done <- b.Receive(ctx, tenant, "worker", "", 0, func(store.BusMessage) error { return nil })
		}()
		time.Sleep(50 * time.Millisecond)
		cancel()
		if err := <-done; !errors.Is(err, context.Canceled) {
			t.Fatalf("Receive = %v, want context.Canceled", err)
		}
	})
}

// countingStore is the real store, counting DeliverBus calls.
type countingStore struct {
	store.Store
	deliveries atomic.Int64
}

func (c *countingStore) DeliverBus(ctx context.Context, tenant, channel, inReplyTo string, now time.Time, ackTimeout time.Duration, limit int) ([]store.BusMessage, error) {
	c.deliveries.Add(1)
	return c.Store.DeliverBus(ctx, tenant, channel, inReplyTo, now, ackTimeout, limit)
}

// A receiver waiting for replies must not poll the store in a tight loop
// because another, unacknowledged message on its channel is past its ack
// timeout: that message is not for it, and nothing changes until someone
// else takes or acknowledges it.
func TestReceiveWithFilterDoesNotSpin(t *testing.T) {
	db, err := sqlite.Open(t.TempDir(), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	cs := &countingStore{Store: db}
	reg := versions.New(cs, clock.Real{}, versions.Options{})
	if _, _, err := reg.Publish(ctxT(t), tenant, robot("dispatcher", true, "alerts")); err != nil {
		t.Fatal(err)
	}
	b := bus.New(cs, reg, clock.Real{})

	// A message delivered once and never acknowledged: its ack timeout
	// passes while nobody receives on the channel.
	m := send(t, b, "dispatcher", "alerts", `"not a reply"`, "")
	const ackTimeout = 100 * time.Millisecond
	r0 := receive(t, b, tenant, "alerts", "", ackTimeout)
	if d := r0.next(t); d.msg.MessageID != m.MessageID {
		t.Fatalf("delivered %s, want %s", d.msg.MessageID, m.MessageID)
	}
	r0.stop()
	<-r0.done
	r0.done <- nil // for the cleanup
	time.Sleep(2 * ackTimeout)

	// A receiver of replies to a question nobody answered yet.
	before := cs.deliveries.Load()
	r1 := receive(t, b, tenant, "alerts", "msg_question", time.Hour)
	const window = 500 * time.Millisecond
	r1.none(t, window)
	if polls := cs.deliveries.Load() - before; polls > 20 {
		t.Errorf("an idle receiver of replies polled the store %d times in %v: it spins on the other message's past redelivery time", polls, window)
	}
	// Settle the receiver before the cleanup cancels it: with the message
	// acknowledged it has nothing left to poll for.
	if _, err := b.Acknowledge(ctxT(t), tenant, "alerts", []string{m.MessageID}); err != nil {
		t.Fatal(err)
	}
	r1.none(t, 100*time.Millisecond)
}
