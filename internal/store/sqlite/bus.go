package sqlite

import (
	"context"
	"database/sql"
	"sort"
	"time"

	"github.com/runsvc/runsvc/internal/store"
)

// DeclareChannels records the channels a Spec receives on.
func (db *DB) DeclareChannels(ctx context.Context, tenant, owner string, channels []string) (opErr error) {
	defer db.observe("DeclareChannels", time.Now(), &opErr)
	return db.exec(ctx, "declare channels", func(tx *sql.Tx) error {
		for _, c := range channels {
			if _, err := tx.Exec(`INSERT INTO bus_channels (tenant, channel, owner) VALUES (?, ?, ?) ON CONFLICT DO NOTHING`, tenant, c, owner); err != nil {
				return unavailable("declare channels", err)
			}
		}
		return nil
	})
}

// ChannelExists reports whether a channel was declared.
func (db *DB) ChannelExists(ctx context.Context, tenant, channel string) (_ bool, opErr error) {
	defer db.observe("ChannelExists", time.Now(), &opErr)
	var n int
	err := db.queryRow(ctx, `SELECT COUNT(*) FROM bus_channels WHERE tenant = ? AND channel = ?`, tenant, channel).Scan(&n)
	return n > 0, unavailable("channel exists", err)
}

// SendBus stores a message.
func (db *DB) SendBus(ctx context.Context, m store.BusMessage) (opErr error) {
	defer db.observe("SendBus", time.Now(), &opErr)
	return db.exec(ctx, "send message", func(tx *sql.Tx) error {
		_, err := tx.Exec(`INSERT INTO bus_messages (tenant, message_id, channel, sender, content, in_reply_to, send_time) VALUES (?, ?, ?, ?, ?, ?, ?)`,
			m.Tenant, m.MessageID, m.Channel, m.Sender, m.Content, m.InReplyTo, store.Nanos(m.SendTime))
		return unavailable("send message", err)
	}, store.BusTopic(m.Tenant, m.Channel))
}

// DeliverBus takes messages out for delivery.
func (db *DB) DeliverBus(ctx context.Context, tenant, channel, inReplyTo string, now time.Time, ackTimeout time.Duration, limit int) (_ []store.BusMessage, opErr error) {
	defer db.observe("DeliverBus", time.Now(), &opErr)
	var out []store.BusMessage
	err := db.exec(ctx, "receive", func(tx *sql.Tx) error {
		pick := `SELECT ord FROM bus_messages WHERE tenant = ? AND channel = ? AND acked = 0 AND out_until <= ?`
		args := []any{store.Nanos(now.Add(ackTimeout)), tenant, channel, store.Nanos(now)}
		if inReplyTo != "" {
			pick += ` AND in_reply_to = ?`
			args = append(args, inReplyTo)
		}
		rows, err := tx.Query(`UPDATE bus_messages SET out_until = ?, delivery_count = delivery_count + 1
			WHERE ord IN (`+pick+` ORDER BY ord LIMIT ?)
			RETURNING ord, message_id, sender, content, in_reply_to, send_time, delivery_count`, append(args, limit)...)
		if err != nil {
			return unavailable("receive", err)
		}
		defer rows.Close()
		ords := map[string]int64{}
		out = out[:0]
		for rows.Next() {
			m := store.BusMessage{Tenant: tenant, Channel: channel}
			var ord, sent int64
			if err := rows.Scan(&ord, &m.MessageID, &m.Sender, &m.Content, &m.InReplyTo, &sent, &m.DeliveryCount); err != nil {
				return unavailable("receive", err)
			}
			m.SendTime = store.FromNanos(sent)
			ords[m.MessageID] = ord
			out = append(out, m)
		}
		// RETURNING comes in no set order.
		sort.Slice(out, func(i, j int) bool { return ords[out[i].MessageID] < ords[out[j].MessageID] })
		return unavailable("receive", rows.Err())
	})
	return out, err
}

// AckBus acknowledges messages.
func (db *DB) AckBus(ctx context.Context, tenant, channel string, ids []string) (_ int, opErr error) {
	defer db.observe("AckBus", time.Now(), &opErr)
	total := 0
	err := db.exec(ctx, "acknowledge", func(tx *sql.Tx) error {
		args := []any{tenant, channel}
		for _, id := range ids {
			args = append(args, id)
		}
		res, err := tx.Exec(`UPDATE bus_messages SET acked = 1 WHERE tenant = ? AND channel = ? AND acked = 0
			AND message_id IN (`+placeholders(len(ids))+`)`, args...)
		if err != nil {
			return unavailable("acknowledge", err)
		}
		n, _ := res.RowsAffected()
		total = int(n)
		return nil
	})
	return total, err
}

// NextRedelivery returns when the earliest message out for delivery comes
// back.
func (db *DB) NextRedelivery(ctx context.Context, tenant, channel string) (_ time.Time, _ bool, opErr error) {
	defer db.observe("NextRedelivery", time.Now(), &opErr)
	var at sql.NullInt64
	err := db.queryRow(ctx, `SELECT MIN(out_until) FROM bus_messages WHERE tenant = ? AND channel = ? AND acked = 0 AND out_until > 0`, tenant, channel).Scan(&at)
	if err != nil {
		return time.Time{}, false, unavailable("receive", err)
	}
	if !at.Valid {
		return time.Time{}, false, nil
	}
	return store.FromNanos(at.Int64), true, nil
}
