package errdetails_test

import (
	"strings"
	"testing"

	edpb "google.golang.org/genproto/googleapis/rpc/errdetails"

	"github.com/runsvc/runsvc/internal/errdetails"
	"github.com/runsvc/runsvc/internal/errs"
)

// TestLongUTF8NameKeepsFirstViolation: a Spec whose long UTF-8 name fills
// the message, the metadata and the violations still arrives with its
// first real violation (shortened), not only the note of the cut.
func TestLongUTF8NameKeepsFirstViolation(t *testing.T) {
	ts := startServer(t, errdetails.Options{})
	name := strings.Repeat("名前", 200)
	vs := []errs.FieldViolation{
		{Field: "name", Description: `"` + name + `" must start with a lower-case letter`},
		{Field: "tools[0].name", Description: `"` + name + `" must match ^[a-zA-Z0-9_-]{1,64}$`},
	}
	m := sendRaw(t, ts, "utf8", &errs.SpecInvalid{Spec: name, Violations: vs})
	if m.wire > designBudget {
		t.Errorf("the error takes %d bytes on the wire, want at most %d", m.wire, designBudget)
	}
	var br *edpb.BadRequest
	for _, d := range m.status.Details() {
		if b, ok := d.(*edpb.BadRequest); ok {
			br = b
		}
	}
	if br == nil || len(br.GetFieldViolations()) == 0 {
		t.Fatalf("no BadRequest violations in %v", m.status.Details())
	}
	if first := br.GetFieldViolations()[0]; first.GetField() != "name" || !strings.HasPrefix(first.GetDescription(), `"名前`) {
		t.Errorf("first violation %q: %q, want the name's own violation", first.GetField(), first.GetDescription())
	}
	t.Logf("%d bytes on the wire; violations %v", m.wire, br.GetFieldViolations())
}
