package httptool_test

import (
	"bufio"
	"net/http"
	"strings"
	"testing"

	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/tool/httptool"
)

// TestEndpointEchoesTheCredential: an endpoint that echoes the
// Authorization value back in every way it can (error bodies, a status
// line, a result) never gets it into what Execute returns.
func TestEndpointEchoesTheCredential(t *testing.T) {
	const cred = `s3cr3t/"quoted"&<value>`
	echo := func(w http.ResponseWriter, r *http.Request) string {
		return strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
	}
	jsonEcho := func(v string) string {
		return strings.NewReplacer(`"`, `\"`, `<`, `\u003c`, `>`, `\u003e`, `&`, `\u0026`).Replace(v)
	}
	cases := []struct {
		name    string
		handler http.HandlerFunc
	}{
		{"4xx JSON error body", func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusForbidden)
			_, _ = w.Write([]byte(`{"error": "bad token ` + jsonEcho(echo(w, r)) + `"}`))
		}},
		{"5xx plain body", func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusBadGateway)
			_, _ = w.Write([]byte(`{"error": {"message": "upstream said ` + jsonEcho(echo(w, r)) + `"}}`))
		}},
		{"200 with an error", func(w http.ResponseWriter, r *http.Request) {
			_, _ = w.Write([]byte(`{"error": "` + jsonEcho(echo(w, r)) + `", "retryable": false}`))
		}},
		{"200 result", func(w http.ResponseWriter, r *http.Request) {
			_, _ = w.Write([]byte(`{"seen": "` + jsonEcho(echo(w, r)) + `", "raw": "` + strings.ReplaceAll(echo(w, r), `"`, `\"`) + `"}`))
		}},
		{"status line", func(w http.ResponseWriter, r *http.Request) {
			conn, buf, err := w.(http.Hijacker).Hijack()
			if err != nil {
				return
			}
			defer conn.Close()
			writeRaw(buf, "HTTP/1.1 418 token "+echo(w, r)+"\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tc := call(serve(t, c.handler).URL)
			tc.Credential = cred
			out, err := httptool.New(nil).Execute(ctxT(t), tc)
			text := string(out)
			if err != nil {
				text += err.Error()
				if tf, ok := errs.Typed(err).(*errs.ToolFailed); ok {
					text += tf.Message
				}
			}
			for _, form := range []string{cred, jsonEcho(cred), "s3cr3t"} {
				if strings.Contains(text, form) {
					t.Fatalf("the credential (as %q) is in what Execute returned: %s", form, text)
				}
			}
			if !strings.Contains(text, "[redacted]") {
				t.Fatalf("nothing was redacted; the endpoint's echo is missing: %s", text)
			}
		})
	}
}

func writeRaw(buf *bufio.ReadWriter, s string) {
	_, _ = buf.WriteString(s)
	_ = buf.Flush()
}
