package server_test

import (
	"strconv"
	"strings"
	"testing"

	"google.golang.org/grpc/metadata"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/auth"
)

// TestAuthorizationSchemeIsCaseInsensitive: the scheme of the
// authorization header is matched whatever its case (RFC 9110 §11.1), on
// a unary call and on a stream; anything else than Bearer and a key is
// still refused.
func TestAuthorizationSchemeIsCaseInsensitive(t *testing.T) {
	s := startSecured(t, []string{"acme"})
	key := s.keys["acme/"+auth.RoleReader]
	conn := s.conn(t, "", nil)
	runs := runsvcv1.NewRunServiceClient(conn)
	cases := []struct {
		header string
		want   string // reason, "" for accepted
	}{
		{"Bearer " + key, ""},
		{"bearer " + key, ""},
		{"BEARER " + key, ""},
		{"bEaReR " + key, ""},
		{"Bearer  " + key, ""}, // 1*SP between scheme and token
		{"bearer", "UNAUTHENTICATED"},
		{"bearer ", "UNAUTHENTICATED"},
		{"bearer" + key, "UNAUTHENTICATED"},
		{"Basic " + key, "UNAUTHENTICATED"},
		{"bearer rsk_not-a-key", "UNAUTHENTICATED"},
	}
	for _, c := range cases {
		scheme, _, _ := strings.Cut(c.header, "rsk_")
		t.Run(strconv.Quote(scheme), func(t *testing.T) {
			ctx := metadata.AppendToOutgoingContext(ctxT(t), "authorization", c.header)
			_, err := runs.ListRuns(ctx, &runsvcv1.ListRunsRequest{})
			if got := reasonOf(err); got != c.want {
				t.Errorf("ListRuns with %q: reason %q (%v), want %q", scheme, got, err, c.want)
			}
			stream, err := runs.WatchRun(ctx, &runsvcv1.WatchRunRequest{RunId: "no-such-run"})
			if err == nil {
				_, err = stream.Recv()
			}
			want := c.want
			if want == "" {
				want = "RUN_NOT_FOUND"
			}
			if got := reasonOf(err); got != want {
				t.Errorf("WatchRun with %q: reason %q (%v), want %q", scheme, got, err, want)
			}
		})
	}
}
