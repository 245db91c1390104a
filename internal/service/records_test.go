package service

import (
	"testing"
	"time"

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
		if got := s.watchedRecord(tc.tenant, "run_1", r).GetRecord().GetMessageQueued().GetText(); got != tc.text {
			t.Errorf("%s watches %q, want %q", tc.tenant, got, tc.text)
		}
	}
	again := s.watchedRecord("acme", "run_1", runlog.Record{Seq: 3, Time: at, Op: &runlog.MessageQueued{Text: "ignored"}})
	if got := again.GetRecord().GetMessageQueued().GetText(); got != "for acme" {
		t.Errorf("the cached Record reads %q", got)
	}
}
