package console

import (
	"bytes"
	"fmt"
	"html/template"
	"io/fs"
	"net/http"
	"path"
	"strings"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/timestamppb"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
)

// layout is the template every page is rendered in.
const layout = "templates/layout.html"

// funcs are the helpers templates may call; every value they return is
// still escaped by html/template.
var funcs = template.FuncMap{
	"stamp":   stamp,
	"outcome": outcome,
	"lower":   strings.ToLower,
	"short": func(s string) string {
		return strings.TrimPrefix(strings.TrimPrefix(s, "RUN_STATE_"), "SUSPENSION_REASON_")
	},
	// The schedules page.
	"scheduleWhen": scheduleWhen,
	"firstTicks":   firstTicks,
	"lastOutcomes": lastOutcomes,
	"tickOutcome":  tickOutcome,
	// A Spec's aliases.
	"primaryShare": func(canary int32) int32 { return 100 - canary },
	"aliasSide": func(s runsvcv1.AliasSide) string {
		if s == runsvcv1.AliasSide_ALIAS_SIDE_UNSPECIFIED {
			return "other"
		}
		return strings.ToLower(strings.TrimPrefix(s.String(), "ALIAS_SIDE_"))
	},
	// The evaluation page.
	"latency": func(d *durationpb.Duration) string { return duration(d.AsDuration()) },
}

// stamp writes a timestamp in UTC to the millisecond, or "—".
func stamp(ts *timestamppb.Timestamp) string {
	if ts == nil {
		return "—"
	}
	return ts.AsTime().UTC().Format("2006-01-02 15:04:05.000Z")
}

// parsePages parses every page with the layout, keyed by file name.
func parsePages() (map[string]*template.Template, error) {
	names, err := fs.Glob(templateFS, "templates/*.html")
	if err != nil {
		return nil, err
	}
	pages := map[string]*template.Template{}
	for _, n := range names {
		if n == layout {
			continue
		}
		t, err := template.New(path.Base(n)).Funcs(funcs).ParseFS(templateFS, layout, n)
		if err != nil {
			return nil, fmt.Errorf("console: parsing %s: %w", n, err)
		}
		pages[path.Base(n)] = t
	}
	return pages, nil
}

// view is what the layout renders: the page's title, the session (for
// the CSRF token and who is signed in) and the page's own data.
type view struct {
	Title string
	Sess  *session
	Open  bool
	Body  any
}

// render writes a page; a template that fails is a 500 with nothing of
// the half-written page.
func (c *Console) render(w http.ResponseWriter, _ *http.Request, s *session, code int, page, title string, body any) {
	c.write(w, s, code, page, title, body, nil)
}

// renderTimed renders a 200 page with a Server-Timing header timing()
// gives once the page is rendered, before it is sent.
func (c *Console) renderTimed(w http.ResponseWriter, s *session, page, title string, body any, timing func() string) {
	c.write(w, s, http.StatusOK, page, title, body, timing)
}

// write renders page into memory, then sends it.
func (c *Console) write(w http.ResponseWriter, s *session, code int, page, title string, body any, timing func() string) {
	var b bytes.Buffer
	t := c.pages[page]
	if t == nil {
		c.cfg.Log.Error("console: no such page", "page", page)
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	if err := t.ExecuteTemplate(&b, "layout", view{Title: title, Sess: s, Open: c.cfg.SignIn == nil, Body: body}); err != nil {
		c.cfg.Log.Error("console: rendering failed", "page", page, "err", err)
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	if timing != nil {
		w.Header().Set("Server-Timing", timing())
	}
	w.WriteHeader(code)
	_, _ = w.Write(b.Bytes())
}

// problemView is the data of the error page.
type problemView struct {
	Heading, Text string
	Failure       *failureView
	Back          string
}

// problem renders a page saying what went wrong, not from an RPC.
func (c *Console) problem(w http.ResponseWriter, r *http.Request, s *session, code int, heading, text string) {
	c.render(w, r, s, code, "problem.html", heading, problemView{Heading: heading, Text: text, Back: backOf(r)})
}

// rpcError renders an RPC's error from its google.rpc.Status, as the API
// returned it, with the HTTP status nearest its code.
func (c *Console) rpcError(w http.ResponseWriter, r *http.Request, s *session, err error) {
	st, _ := status.FromError(err)
	f := failureOf(st.Proto())
	c.render(w, r, s, httpCode(st.Code()), "problem.html", f.Reason, problemView{Heading: "The request failed: " + f.Reason, Failure: f, Back: backOf(r)})
}

// backOf is where the error page's link goes: the Run an action was about,
// or the Runs list.
func backOf(r *http.Request) string {
	if id := r.PathValue("id"); id != "" {
		return "/runs/" + id
	}
	return "/runs"
}

// httpCode maps a gRPC code to the HTTP status a browser shows.
func httpCode(c codes.Code) int {
	switch c {
	case codes.NotFound:
		return http.StatusNotFound
	case codes.PermissionDenied:
		return http.StatusForbidden
	case codes.Unauthenticated:
		return http.StatusUnauthorized
	case codes.InvalidArgument, codes.OutOfRange:
		return http.StatusBadRequest
	case codes.FailedPrecondition, codes.AlreadyExists, codes.Aborted:
		return http.StatusConflict
	case codes.ResourceExhausted:
		return http.StatusTooManyRequests
	case codes.Unavailable:
		return http.StatusServiceUnavailable
	case codes.DeadlineExceeded, codes.Canceled:
		return http.StatusGatewayTimeout
	}
	return http.StatusInternalServerError
}

// duration writes d to the millisecond, or "—" when unknown.
func duration(d time.Duration) string {
	if d < 0 {
		return "—"
	}
	return d.Round(time.Millisecond).String()
}
