// Package console is runsvc's web console: the Runs list, a Run's
// timeline with its live text, the actions a role allows, Specs with
// their Versions, and the error catalogue, served from templates and
// assets embedded in the binary.
//
// The console is a client of runsvc's own gRPC services, over an
// in-process connection: every page and action is the RPC an API caller
// would make, through the same interceptors (error table, admission,
// authentication, roles, tenants), so its errors are the same
// google.rpc.Status, rendered with every detail. A signed-in session holds
// the API key it was opened with and sends it as the bearer token.
package console

import (
	"embed"
	"errors"
	"html/template"
	"io/fs"
	"log/slog"
	"net/http"
	"time"

	"google.golang.org/grpc"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/auth"
	"github.com/runsvc/runsvc/internal/clock"
)

//go:embed templates/*.html
var templateFS embed.FS

//go:embed static
var staticFS embed.FS

// Config is what the console needs.
type Config struct {
	// Conn reaches runsvc's gRPC services; calls carry the session's key.
	Conn grpc.ClientConnInterface
	// SignIn checks an API key. Nil means the server authenticates
	// nobody: every visitor is the default tenant with every role, which
	// the server allows only on loopback.
	SignIn func(key string) (auth.Identity, bool)
	// Secure marks cookies Secure: the console is served over TLS.
	Secure bool
	// Clock tells sessions' age; the wall clock when nil.
	Clock clock.Clock
	// SessionTTL is how long a signed-in session lasts; default 12h.
	SessionTTL time.Duration
	// Log receives the console's own failures.
	Log *slog.Logger
}

// Console serves the pages.
type Console struct {
	cfg      Config
	pages    map[string]*template.Template
	sessions *sessions
	specs    runsvcv1.SpecServiceClient
	runs     runsvcv1.RunServiceClient
	// schedules reads the tenant's schedules.
	schedules runsvcv1.ScheduleServiceClient
	hooks     runsvcv1.WebhookServiceClient
	// aliases reads a Spec's aliases and their rollouts.
	aliases runsvcv1.AliasServiceClient
	// evals reads the tenant's evaluations.
	evals runsvcv1.EvaluationServiceClient
}

// New builds a console.
func New(cfg Config) (*Console, error) {
	if cfg.Conn == nil {
		return nil, errors.New("console: no connection")
	}
	if cfg.Clock == nil {
		cfg.Clock = clock.Real{}
	}
	if cfg.SessionTTL <= 0 {
		cfg.SessionTTL = 12 * time.Hour
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	pages, err := parsePages()
	if err != nil {
		return nil, err
	}
	return &Console{
		cfg:       cfg,
		pages:     pages,
		sessions:  newSessions(cfg.Clock, cfg.SessionTTL),
		specs:     runsvcv1.NewSpecServiceClient(cfg.Conn),
		runs:      runsvcv1.NewRunServiceClient(cfg.Conn),
		schedules: runsvcv1.NewScheduleServiceClient(cfg.Conn),
		hooks:     runsvcv1.NewWebhookServiceClient(cfg.Conn),
		aliases:   runsvcv1.NewAliasServiceClient(cfg.Conn),
		evals:     runsvcv1.NewEvaluationServiceClient(cfg.Conn),
	}, nil
}

// Handler is the console's routes, each behind the security headers and
// the session.
func (c *Console) Handler() http.Handler {
	mux := http.NewServeMux()
	static, _ := fs.Sub(staticFS, "static")
	files := http.StripPrefix("/static/", http.FileServerFS(static))
	mux.Handle("GET /static/", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// The assets change only with the binary; pages are never cached.
		w.Header().Set("Cache-Control", "public, max-age=300")
		files.ServeHTTP(w, r)
	}))
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/runs", http.StatusSeeOther) })
	mux.HandleFunc("GET /login", c.page(c.loginPage, false))
	mux.HandleFunc("POST /login", c.action(c.login, false))
	mux.HandleFunc("POST /logout", c.action(c.logout, true))
	mux.HandleFunc("GET /runs", c.page(c.runsPage, true))
	mux.HandleFunc("GET /runs/events", c.page(c.countEvents, true))
	mux.HandleFunc("GET /runs/{id}", c.page(c.runPage, true))
	mux.HandleFunc("GET /runs/{id}/text", c.page(c.textEvents, true))
	mux.HandleFunc("POST /runs/{id}/resume", c.action(c.resume, true))
	mux.HandleFunc("POST /runs/{id}/message", c.action(c.sendMessage, true))
	mux.HandleFunc("POST /runs/{id}/interrupt", c.action(c.interrupt, true))
	mux.HandleFunc("GET /specs", c.page(c.specsPage, true))
	mux.HandleFunc("GET /specs/{name}", c.page(c.specPage, true))
	mux.HandleFunc("GET /schedules", c.page(c.schedulesPage, true))
	mux.HandleFunc("GET /webhooks", c.page(c.webhooksPage, true))
	mux.HandleFunc("GET /webhooks/{id}", c.page(c.webhookPage, true))
	mux.HandleFunc("GET /evaluations", c.page(c.evaluationsPage, true))
	mux.HandleFunc("GET /evaluations/{id}", c.page(c.evaluationPage, true))
	mux.HandleFunc("GET /errors", c.page(c.errorsPage, false))
	return secureHeaders(mux)
}

// csp allows the console's own script, styles and event streams and
// nothing else: no inline script, no other origin, no framing.
const csp = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; " +
	"form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

// secureHeaders sets the headers every response carries.
func secureHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", csp)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("X-Frame-Options", "DENY")
		if h.Get("Cache-Control") == "" {
			h.Set("Cache-Control", "no-store")
		}
		next.ServeHTTP(w, r)
	})
}
