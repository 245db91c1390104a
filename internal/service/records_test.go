package service

import (
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"

	"github.com/runsvc/runsvc/internal/errdetails"
	"github.com/runsvc/runsvc/internal/runlog"
)

// TestWatchedRecordsStayInTheirTenant: two tenants' Records with the same
// run id and seq are converted and cached apart.
func TestWatchedRecordsStayInTheirTenant(t *testing.T) {
	s := &Service{mapper: errdetails.New(errdetails.Options{})}
	at := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		tenant, text string
	}{
		{"acme", "for acme"},
		{"globex", "for globex"},
	}
	for _, tc := range tests {
		r := runlog.Record{Seq: 3, Time: at, Op: &runlog.MessageQueued{Text: tc.text, Mode: runlog.ModeSteer}}
		if got := watchedText(t, s.watchedRecord(tc.tenant, "run_1", r)); got != tc.text {
			t.Errorf("%s watches %q, want %q", tc.tenant, got, tc.text)
		}
	}
	again := s.watchedRecord("acme", "run_1", runlog.Record{Seq: 3, Time: at, Op: &runlog.MessageQueued{Text: "ignored"}})
	if got := watchedText(t, again); got != "for acme" {
		t.Errorf("the cached Record reads %q", got)
	}
	if seq := again.(*Encoded).RecordSeq(); seq != 3 {
		t.Errorf("the encoded Record says seq %d, want 3", seq)
	}
}

// watchedText decodes a watchedRecord message and returns its queued
// message's text.
func watchedText(t *testing.T, m any) string {
	t.Helper()
	e, ok := m.(*Encoded)
	if !ok {
		t.Fatalf("watchedRecord returned %T, want *Encoded", m)
	}
	var p runsvcv1.WatchRunResponse
	if err := proto.Unmarshal(e.data, &p); err != nil {
		t.Fatal(err)
	}
	return p.GetRecord().GetMessageQueued().GetText()
}
