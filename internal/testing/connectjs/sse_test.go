package connectjs_test

import (
	"bufio"
	"io"
	"net/http"
	"strings"
	"sync"
)

// ssePage watches ?run= on ?api= with EventSource and reports, at
// `event: end`, every event's id in order and how often it (re)opened.
const ssePage = `<!doctype html><title>runsvc SSE</title><script>
const q = new URL(location.href).searchParams;
const ids = [];
let opens = 0;
const es = new EventSource(q.get("api") + "/v1/runs/" + q.get("run") + ":watch");
es.onopen = () => { opens++; };
es.onmessage = (e) => { ids.push(e.lastEventId); };
es.addEventListener("end", () => { es.close(); window.result = { ok: true, ids, opens }; });
es.onerror = () => { if (es.readyState === EventSource.CLOSED) window.result = { ok: false, error: "EventSource closed", ids, opens }; };
</script>`

// cuttingProxy forwards to the HTTP API and ends the first SSE response
// after the event whose id is cutAfter, as a server that closes a stream
// (or restarts) mid-turn does; later requests pass whole. It records each
// SSE request's Last-Event-ID.
type cuttingProxy struct {
	upstream string
	cutAfter string

	mu          sync.Mutex
	lastEventID []string
}

func (p *cuttingProxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	req, err := http.NewRequestWithContext(r.Context(), r.Method, p.upstream+r.URL.RequestURI(), r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	req.Header = r.Header.Clone()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	defer resp.Body.Close()
	for k, v := range resp.Header {
		w.Header()[k] = v
	}
	w.WriteHeader(resp.StatusCode)
	if !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		_, _ = io.Copy(w, resp.Body)
		return
	}
	p.mu.Lock()
	p.lastEventID = append(p.lastEventID, r.Header.Get("Last-Event-ID"))
	first := len(p.lastEventID) == 1
	p.mu.Unlock()
	p.relay(w, resp.Body, first)
}

// relay copies an event stream line by line, flushing each; when cut, it
// stops at the blank line ending the event with id cutAfter.
func (p *cuttingProxy) relay(w http.ResponseWriter, body io.Reader, cut bool) {
	flush := w.(http.Flusher)
	sc := bufio.NewScanner(body)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	reached := false
	for sc.Scan() {
		line := sc.Text()
		_, _ = io.WriteString(w, line+"\n")
		flush.Flush()
		if line == "id: "+p.cutAfter {
			reached = true
		}
		if cut && reached && line == "" {
			return
		}
	}
}

// requests returns the Last-Event-ID of each SSE request, in order.
func (p *cuttingProxy) requests() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.lastEventID...)
}
