package storetest

import (
	"errors"
	"testing"
	"time"

	"github.com/runsvc/runsvc/internal/store"
)

// runNewestVersion checks NewRun.IfNoNewerVersion: a Run conditional on
// no newer Version of its Spec is not created when there is one, on no
// thread and on one.
func runNewestVersion(t *testing.T, open Opener) {
	for _, c := range []struct {
		name   string
		thread string
	}{{"NewestVersionOnNoThread", ""}, {"NewestVersionOnAThread", "th"}} {
		t.Run(c.name, func(t *testing.T) { testNewestVersion(t, open(t), c.thread) })
	}
}

// newestCase is one CreateRun of testNewestVersion.
type newestCase struct {
	name    string
	version string
	newest  bool
	// requestID, when set, is the request id of the case before it.
	requestID string
	// superseded says the store must refuse it; existing that it returns
	// the Run of the case before it, created false.
	superseded, existing bool
}

func testNewestVersion(t *testing.T, s store.Store, thread string) {
	c := ctx(t)
	for i, v := range []string{"n1", "n2"} {
		if _, _, err := s.PutSpec(c, store.Spec{Tenant: tenant, Name: "s", Version: v, Body: []byte(`{}`), CreateTime: t0.Add(time.Duration(i) * time.Second)}); err != nil {
			t.Fatalf("PutSpec %s: %v", v, err)
		}
	}
	cases := []newestCase{
		{name: "the newest, asked as the newest", version: "n2", newest: true},
		{name: "an older one, asked by its name", version: "n1", requestID: "req-older"},
		{name: "a used request id, on a superseded newest", version: "n1", newest: true, requestID: "req-older", existing: true},
		{name: "an older one, asked as the newest", version: "n1", newest: true, superseded: true},
		{name: "a version not stored, asked as the newest", version: "gone", newest: true},
	}
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			nr := newRun("run_"+string(rune('a'+i)), true)
			nr.Version, nr.IfNoNewerVersion = tc.version, tc.newest
			nr.ThreadID, nr.RejectBusy, nr.RequestID = thread, false, tc.requestID
			r, created, err := s.CreateRun(c, nr)
			if tc.existing {
				if err != nil || created || r.RunID != "run_"+string(rune('a'+i-1)) {
					t.Fatalf("CreateRun = %s, created %v, %v; want the request id's Run", r.RunID, created, err)
				}
				return
			}
			if tc.superseded {
				if !errors.Is(err, store.ErrConditionFailed) || created {
					t.Fatalf("CreateRun = created %v, %v; want ErrConditionFailed", created, err)
				}
				if _, err := s.GetRun(c, tenant, nr.RunID); err == nil {
					t.Fatal("a superseded CreateRun left its Run")
				}
				return
			}
			if err != nil || !created || r.Version != tc.version {
				t.Fatalf("CreateRun = version %q, created %v, %v; want %s created", r.Version, created, err, tc.version)
			}
		})
	}
}
