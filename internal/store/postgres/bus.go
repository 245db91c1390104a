package postgres

import (
	"context"
	"sort"
	"time"

	"github.com/runsvc/runsvc/internal/store"
)

// DeclareChannels records that owner (a Spec) receives on channels.
func (db *DB) DeclareChannels(ctx context.Context, tenant, owner string, channels []string) (opErr error) {
	defer db.observe("DeclareChannels", time.Now(), &opErr)
	if len(channels) == 0 {
		return nil
	}
	_, err := db.pool.Exec(ctx, `INSERT INTO bus_channels (tenant, channel, owner) SELECT $1, c, $2 FROM unnest($3::text[]) AS c
		ON CONFLICT DO NOTHING`, tenant, owner, channels)
	return unavailable(ctx, "declare channels", err)
}

// ChannelExists reports whether some Spec declared the channel.
func (db *DB) ChannelExists(ctx context.Context, tenant, channel string) (_ bool, opErr error) {
	defer db.observe("ChannelExists", time.Now(), &opErr)
	var ok bool
	err := db.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM bus_channels WHERE tenant = $1 AND channel = $2)`, tenant, channel).Scan(&ok)
	return ok, unavailable(ctx, "channel exists", err)
}

// SendBus stores a message and signals the channel.
func (db *DB) SendBus(ctx context.Context, m store.BusMessage) (opErr error) {
	defer db.observe("SendBus", time.Now(), &opErr)
	return db.inTx(ctx, "send message", func(tx *txn) error {
		_, err := tx.Exec(ctx, `INSERT INTO bus_messages (tenant, message_id, channel, sender, content, in_reply_to, send_time)
			VALUES ($1, $2, $3, $4, $5, $6, $7)`,
			m.Tenant, m.MessageID, m.Channel, m.Sender, bytesOrEmpty(m.Content), m.InReplyTo, store.Nanos(m.SendTime))
		if err != nil {
			return err
		}
		tx.notify(store.BusTopic(m.Tenant, m.Channel))
		return nil
	})
}

// DeliverBus takes up to limit unacknowledged messages of a channel that
// are not out for delivery, oldest first, and marks them out until
// now+ackTimeout. inReplyTo, when set, selects replies to one message.
// Concurrent receivers never take the same message (SKIP LOCKED). A
// negative limit takes them all.
func (db *DB) DeliverBus(ctx context.Context, tenant, channel, inReplyTo string, now time.Time, ackTimeout time.Duration, limit int) (_ []store.BusMessage, opErr error) {
	defer db.observe("DeliverBus", time.Now(), &opErr)
	var lim *int64 // NULL: no limit
	if limit >= 0 {
		n := int64(limit)
		lim = &n
	}
	replyFilter := ""
	args := []any{tenant, channel, store.Nanos(now), store.Nanos(now.Add(ackTimeout)), lim}
	if inReplyTo != "" {
		replyFilter = ` AND in_reply_to = $6`
		args = append(args, inReplyTo)
	}
	rows, err := db.pool.Query(ctx, `UPDATE bus_messages SET out_until = $4, delivery_count = delivery_count + 1
		WHERE tenant = $1 AND message_id IN (SELECT message_id FROM bus_messages
			WHERE tenant = $1 AND channel = $2 AND NOT acked AND out_until <= $3`+replyFilter+`
			ORDER BY ord LIMIT $5 FOR UPDATE SKIP LOCKED)
		RETURNING ord, message_id, sender, content, in_reply_to, send_time, delivery_count`, args...)
	if err != nil {
		return nil, unavailable(ctx, "receive", err)
	}
	defer rows.Close()
	type delivered struct {
		ord int64
		m   store.BusMessage
	}
	var got []delivered
	for rows.Next() {
		d := delivered{m: store.BusMessage{Tenant: tenant, Channel: channel}}
		var sent int64
		var count int32
		if err := rows.Scan(&d.ord, &d.m.MessageID, &d.m.Sender, &d.m.Content, &d.m.InReplyTo, &sent, &count); err != nil {
			return nil, unavailable(ctx, "receive", err)
		}
		d.m.SendTime, d.m.DeliveryCount = store.FromNanos(sent), int(count)
		got = append(got, d)
	}
	if err := rows.Err(); err != nil {
		return nil, unavailable(ctx, "receive", err)
	}
	sort.Slice(got, func(i, j int) bool { return got[i].ord < got[j].ord })
	out := make([]store.BusMessage, len(got))
	for i, d := range got {
		out[i] = d.m
	}
	return out, nil
}

// AckBus acknowledges messages; it returns how many were unacknowledged.
func (db *DB) AckBus(ctx context.Context, tenant, channel string, ids []string) (_ int, opErr error) {
	defer db.observe("AckBus", time.Now(), &opErr)
	if len(ids) == 0 {
		return 0, nil
	}
	tag, err := db.pool.Exec(ctx, `UPDATE bus_messages SET acked = true
		WHERE tenant = $1 AND channel = $2 AND message_id = ANY($3) AND NOT acked`, tenant, channel, ids)
	if err != nil {
		return 0, unavailable(ctx, "acknowledge", err)
	}
	return int(tag.RowsAffected()), nil
}

// NextRedelivery returns when the earliest message out for delivery on a
// channel comes back.
func (db *DB) NextRedelivery(ctx context.Context, tenant, channel string) (_ time.Time, _ bool, opErr error) {
	defer db.observe("NextRedelivery", time.Now(), &opErr)
	var at *int64
	err := db.pool.QueryRow(ctx, `SELECT MIN(out_until) FROM bus_messages WHERE tenant = $1 AND channel = $2 AND NOT acked AND out_until > 0`,
		tenant, channel).Scan(&at)
	if err != nil {
		return time.Time{}, false, unavailable(ctx, "receive", err)
	}
	if at == nil {
		return time.Time{}, false, nil
	}
	return store.FromNanos(*at), true, nil
}
