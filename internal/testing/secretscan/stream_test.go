package secretscan_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/model"
	"github.com/runsvc/runsvc/internal/secret"
	"github.com/runsvc/runsvc/internal/server"
	"github.com/runsvc/runsvc/internal/spec"
	"github.com/runsvc/runsvc/internal/testing/testserver"
)

// fileSecret is the secrets file's credential; theSecret is the
// environment's.
const fileSecret = `fs-Pr0beS3cr3t/9+q&<z>"Yw`

// formsOf are the ways value could be written down.
func formsOf(value string) []string {
	js, _ := json.Marshal(value)
	b := []byte(value)
	all := []string{
		value, string(js[1 : len(js)-1]), strings.NewReplacer(`\u003c`, "<", `\u003e`, ">", `\u0026`, "&").Replace(string(js[1 : len(js)-1])),
		url.QueryEscape(value), url.PathEscape(value),
		base64.StdEncoding.EncodeToString(b), base64.URLEncoding.EncodeToString(b),
		base64.RawStdEncoding.EncodeToString(b), base64.RawURLEncoding.EncodeToString(b),
	}
	seen := map[string]bool{}
	var out []string
	for _, f := range all {
		if !seen[f] {
			seen[f] = true
			out = append(out, f)
		}
	}
	return out
}

// leakedIn counts both secrets in text, in every form.
func leakedIn(text string) int {
	n := 0
	for _, v := range []string{theSecret, fileSecret} {
		for _, f := range formsOf(v) {
			n += strings.Count(text, f)
		}
	}
	return n
}

// chunkedModel streams its script's text in pieces of the size its model
// name gives ("chunk3"), stopping halfway until the test lets it go on.
type chunkedModel struct {
	halfway chan int64 // the number of pieces sent so far
	resume  chan struct{}
}

func (m chunkedModel) Complete(ctx context.Context, req model.Request) (model.Response, error) {
	text := req.Model.Script[0].Text
	size, _ := strconv.Atoi(strings.TrimPrefix(req.Model.Model, "chunk"))
	var pieces []string
	for rest := text; len(rest) > 0; {
		n := min(size, len(rest))
		pieces, rest = append(pieces, rest[:n]), rest[n:]
	}
	for i, p := range pieces {
		if i == len(pieces)/2 {
			m.halfway <- int64(i)
			select {
			case <-m.resume:
			case <-ctx.Done():
				return model.Response{}, ctx.Err()
			}
		}
		req.Emit(model.Delta{Text: p})
	}
	return model.Response{Text: text, Usage: model.Usage{InputTokens: 1, OutputTokens: 1}}, nil
}

// viewer reads one live stream to its end.
type viewer struct {
	name string
	msgs []proto.Message
	err  error
	done chan struct{}
}

func follow[T proto.Message](name string, stream interface{ Recv() (T, error) }, first ...T) *viewer {
	v := &viewer{name: name, done: make(chan struct{})}
	for _, m := range first {
		v.msgs = append(v.msgs, m)
	}
	go func() {
		defer close(v.done)
		for {
			m, err := stream.Recv()
			if err == io.EOF {
				return
			}
			if err != nil {
				v.err = err
				return
			}
			v.msgs = append(v.msgs, m)
		}
	}()
	return v
}

// followFromPiece reads a WatchRun up to its first piece of text, then
// follows the rest.
func followFromPiece(t *testing.T, name string, stream runsvcv1.RunService_WatchRunClient) *viewer {
	t.Helper()
	var first []*runsvcv1.WatchRunResponse
	for {
		m, err := stream.Recv()
		if err != nil {
			t.Fatalf("%s before its first piece: %v", name, err)
		}
		first = append(first, m)
		if m.GetDelta().GetText() != "" {
			return follow(name, stream, first...)
		}
	}
}

// TestStreamedSecretsNeverReachViewers: a model streams each form of an
// environment credential and of a secrets-file credential in pieces of 1,
// 3 and 5 bytes. StreamText and WatchRun viewers, joined at the start and
// mid-turn, and viewers resuming from an offset, get no form of either in
// any message or in the text their messages make; what they get is the
// turn's stored text, and the offsets count it exactly.
func TestStreamedSecretsNeverReachViewers(t *testing.T) {
	t.Setenv("RUNSVC_SECRET_SCAN_KEY", theSecret)
	secrets := filepath.Join(t.TempDir(), "secrets.json")
	if err := os.WriteFile(secrets, []byte(fmt.Sprintf(`{"*": {"file_key": %q}}`, fileSecret)), 0o600); err != nil {
		t.Fatal(err)
	}
	m := chunkedModel{halfway: make(chan int64), resume: make(chan struct{})}
	srv := testserver.Start(t, func(c *server.Config) {
		c.SecretsFile = secrets
		c.Models = model.Providers{spec.ProviderScripted: m}
	})
	for _, src := range []struct{ name, credential, value string }{
		{"env", "scan_key", theSecret}, {"secrets file", "file_key", fileSecret},
	} {
		var text strings.Builder
		for i, f := range formsOf(src.value) {
			fmt.Fprintf(&text, "form %d: key=%s; ", i, f)
		}
		for _, size := range []int{1, 3, 5} {
			t.Run(fmt.Sprintf("%s in %d-byte pieces", src.name, size), func(t *testing.T) {
				name := fmt.Sprintf("leaky-%s-%d", src.credential, size)
				srv.Publish(t, fmt.Sprintf(`{"name": %q, "credentials": [{"name": %q}],
				  "model": {"provider": "scripted", "model": "chunk%d", "script": {"turns": [{"text": %q}]}}}`, name, src.credential, size, text.String()))
				checkLiveViewers(t, srv, m, srv.Start(t, name, "go").GetRunId(), len(formsOf(src.value)))
			})
		}
	}
}

// checkLiveViewers follows one Run's streamed turn from every kind of
// viewer and checks what each got.
func checkLiveViewers(t *testing.T, srv *testserver.Server, m chunkedModel, runID string, forms int) {
	ctx := testserver.Context(t)
	text := func(from int64) *runsvcv1.StreamTextRequest {
		return &runsvcv1.StreamTextRequest{RunId: runID, FromOffset: from}
	}
	watch := &runsvcv1.WatchRunRequest{RunId: runID, IncludeDeltas: true}
	start := []*viewer{
		follow("StreamText from the start", must(srv.Runs.StreamText(ctx, text(0)))),
		follow("WatchRun from the start", must(srv.Runs.WatchRun(ctx, watch))),
	}
	<-m.halfway
	joiner := must(srv.Runs.StreamText(ctx, text(0)))
	first := must(joiner.Recv())
	callSeq, had := first.GetSeq(), int64(len(first.GetText()))
	if had == 0 || first.GetOffset() != 0 {
		t.Fatalf("a mid-turn joiner's first message %v: want the text so far from offset 0", first)
	}
	from := had / 2
	// Each joiner has its first piece before the model goes on, so that
	// it joined mid-turn.
	resumedText := must(srv.Runs.StreamText(ctx, &runsvcv1.StreamTextRequest{RunId: runID, FromSeq: callSeq, FromOffset: from}))
	mid := []*viewer{
		follow("StreamText joined mid-turn", joiner, first),
		followFromPiece(t, "WatchRun joined mid-turn", must(srv.Runs.WatchRun(ctx, watch))),
	}
	resumed := []*viewer{
		follow("StreamText resumed", resumedText, must(resumedText.Recv())),
		followFromPiece(t, "WatchRun resumed", must(srv.Runs.WatchRun(ctx, &runsvcv1.WatchRunRequest{RunId: runID, IncludeDeltas: true, FromSeq: callSeq + 1, FromOffset: from}))),
	}
	m.resume <- struct{}{}
	stored := storedText(t, srv, runID)
	if n := leakedIn(stored); n != 0 || strings.Count(stored, secret.Redacted) < forms {
		t.Fatalf("the stored text holds %d secrets and %d redactions (want 0 and %d): %q", n, strings.Count(stored, secret.Redacted), forms, stored)
	}
	for _, v := range append(append(start, mid...), resumed...) {
		<-v.done
		if v.err != nil {
			t.Fatalf("%s: %v", v.name, v.err)
		}
		want, offset := stored, int64(0)
		if strings.HasSuffix(v.name, "resumed") {
			want, offset = stored[from:], from
		}
		checkViewer(t, v, callSeq, offset, want)
	}
}

// checkViewer: no message holds a secret, the text the messages make is
// want and holds none, and each piece's offset is what came before it.
func checkViewer(t *testing.T, v *viewer, callSeq, offset int64, want string) {
	t.Helper()
	var got strings.Builder
	for i, msg := range v.msgs {
		b, _ := protojson.Marshal(msg)
		if n := leakedIn(string(b)); n != 0 {
			t.Errorf("%s: message %d holds the secret %d times: %s", v.name, i, n, b)
		}
		seq, off, piece := pieceOf(msg)
		if seq != callSeq || piece == "" {
			continue
		}
		if off != offset+int64(got.Len()) {
			t.Errorf("%s: message %d at offset %d, want %d", v.name, i, off, offset+int64(got.Len()))
		}
		got.WriteString(piece)
	}
	if n := leakedIn(got.String()); n != 0 {
		t.Errorf("%s: the text the messages make holds the secret %d times: %q", v.name, n, got.String())
	}
	if got.String() != want {
		t.Errorf("%s: text %q, want the stored text %q", v.name, got.String(), want)
	}
}

// pieceOf returns the call seq, offset and text of a message's text.
func pieceOf(msg proto.Message) (int64, int64, string) {
	switch m := msg.(type) {
	case *runsvcv1.StreamTextResponse:
		return m.GetSeq(), m.GetOffset(), m.GetText()
	case *runsvcv1.WatchRunResponse:
		d := m.GetDelta()
		return d.GetSeq(), d.GetOffset(), d.GetText()
	}
	return 0, 0, ""
}

// storedText waits for the Run to settle and returns its turn's stored
// text.
func storedText(t *testing.T, srv *testserver.Server, runID string) string {
	t.Helper()
	srv.Settled(t, runID)
	for _, r := range srv.Records(t, runID) {
		if f := r.GetModelCallFinished(); f != nil {
			return f.GetText()
		}
	}
	t.Fatal("no ModelCallFinished Record")
	return ""
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
