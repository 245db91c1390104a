package console

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"

	"google.golang.org/grpc/status"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/errdetails"
)

// startEvents begins a server-sent event stream; false when the writer
// cannot flush.
func startEvents(w http.ResponseWriter) (func(), bool) {
	fl, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "streaming unsupported", http.StatusInternalServerError)
		return nil, false
	}
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	fl.Flush()
	return fl.Flush, true
}

// writeEvent writes one event; data is JSON, so it holds no newline.
func writeEvent(w io.Writer, event string, data []byte) error {
	_, err := io.WriteString(w, "event: "+event+"\ndata: "+string(data)+"\n\n")
	return err
}

// textEvent is one piece of streamed text.
type textEvent struct {
	Text  string `json:"text"`
	Turn  int32  `json:"turn"`
	Final bool   `json:"final"`
}

// endEvent says how the stream ended: the Run's state, and for an ending
// without an answer the reason StreamText ended with.
type endEvent struct {
	Message string `json:"message"`
	Reason  string `json:"reason,omitempty"`
}

// textEvents relays StreamText as server-sent events: each piece of text
// as "text", then "end" saying how the Run ended. The browser's script
// puts the text in the page with textContent, never as markup.
func (c *Console) textEvents(w http.ResponseWriter, r *http.Request, s *session) {
	ctx := withKey(r.Context(), s)
	stream, err := c.runs.StreamText(ctx, &runsvcv1.StreamTextRequest{RunId: r.PathValue("id")})
	if err != nil {
		c.rpcError(w, r, s, err)
		return
	}
	flush, ok := startEvents(w)
	if !ok {
		return
	}
	for {
		resp, err := stream.Recv()
		if err != nil {
			end := endEvent{Message: "The Run completed. Reload the page to see its whole timeline."}
			if !errors.Is(err, io.EOF) {
				if r.Context().Err() != nil {
					return
				}
				cl := errdetails.ClassifyStatus(status.Convert(err).Proto())
				end = endEvent{Message: "The text stream ended: " + cl.Reason + ": " + cl.Message + " Reload the page to see the timeline.", Reason: cl.Reason}
			}
			b, _ := json.Marshal(end)
			_ = writeEvent(w, "end", b)
			flush()
			return
		}
		if resp.GetText() == "" {
			continue
		}
		b, _ := json.Marshal(textEvent{Text: resp.GetText(), Turn: resp.GetTurn(), Final: resp.GetFinal()})
		if writeEvent(w, "text", b) != nil {
			return
		}
		flush()
	}
}
