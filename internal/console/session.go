package console

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"google.golang.org/grpc/metadata"

	"github.com/runsvc/runsvc/internal/auth"
	"github.com/runsvc/runsvc/internal/clock"
	"github.com/runsvc/runsvc/internal/store"
)

// cookieName is the session cookie.
const cookieName = "runsvc_session"

// anonymousTTL bounds a session nobody signed in to: it only carries the
// sign-in form's CSRF token.
const anonymousTTL = time.Hour

// maxSessions bounds the sessions held; past it the oldest go first.
const maxSessions = 10000

// session is one browser's: its CSRF token and, once signed in, the key
// its calls carry and the identity the key names.
type session struct {
	id       string
	csrf     string
	key      string
	identity auth.Identity
	signedIn bool
	expires  time.Time
}

// may reports whether the session's roles allow method: the server checks
// again; this only decides which buttons to show.
func (s *session) may(method string) bool {
	return s.signedIn && s.identity.Allows("/runsvc.v1.RunService/"+method)
}

// sessions are held in memory, by id.
type sessions struct {
	clk clock.Clock
	ttl time.Duration
	mu  sync.Mutex
	by  map[string]*session
}

func newSessions(clk clock.Clock, ttl time.Duration) *sessions {
	return &sessions{clk: clk, ttl: ttl, by: map[string]*session{}}
}

// token is 32 random bytes, URL-safe.
func token() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// get returns the live session a cookie names, or nil.
func (ss *sessions) get(r *http.Request) *session {
	ck, err := r.Cookie(cookieName)
	if err != nil {
		return nil
	}
	ss.mu.Lock()
	defer ss.mu.Unlock()
	s := ss.by[ck.Value]
	if s == nil {
		return nil
	}
	if !ss.clk.Now().Before(s.expires) {
		delete(ss.by, s.id)
		return nil
	}
	return s
}

// open makes a new session, lasting ttl, and forgets expired ones.
func (ss *sessions) open(ttl time.Duration) *session {
	now := ss.clk.Now()
	s := &session{id: token(), csrf: token(), expires: now.Add(ttl)}
	ss.mu.Lock()
	defer ss.mu.Unlock()
	for id, o := range ss.by {
		if !now.Before(o.expires) {
			delete(ss.by, id)
		}
	}
	for len(ss.by) >= maxSessions {
		oldest := ""
		for id, o := range ss.by {
			if oldest == "" || o.expires.Before(ss.by[oldest].expires) {
				oldest = id
			}
		}
		delete(ss.by, oldest)
	}
	ss.by[s.id] = s
	return s
}

// close forgets a session.
func (ss *sessions) close(s *session) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	delete(ss.by, s.id)
}

// setCookie gives the browser s: HttpOnly, SameSite=Strict, Secure over
// TLS, expiring with the session.
func (c *Console) setCookie(w http.ResponseWriter, s *session) {
	http.SetCookie(w, &http.Cookie{
		Name: cookieName, Value: s.id, Path: "/", HttpOnly: true, Secure: c.cfg.Secure,
		SameSite: http.SameSiteStrictMode, Expires: s.expires, MaxAge: int(s.expires.Sub(c.cfg.Clock.Now()).Seconds()),
	})
}

// current returns the request's session, opening one when there is none.
// Without SignIn, every session is signed in as the default tenant's
// admin: the server authenticates nobody either.
func (c *Console) current(w http.ResponseWriter, r *http.Request) *session {
	if s := c.sessions.get(r); s != nil {
		return s
	}
	ttl := anonymousTTL
	if c.cfg.SignIn == nil {
		ttl = c.cfg.SessionTTL
	}
	s := c.sessions.open(ttl)
	if c.cfg.SignIn == nil {
		s.signedIn = true
		s.identity = auth.Identity{Name: "local", Tenant: store.DefaultTenant, Roles: []string{auth.RoleAdmin}}
	}
	c.setCookie(w, s)
	return s
}

// handler is a page or an action given the request's session.
type handler func(w http.ResponseWriter, r *http.Request, s *session)

// page serves a GET; when signedIn, a session not signed in is sent to
// the sign-in form.
func (c *Console) page(h handler, signedIn bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		s := c.current(w, r)
		if signedIn && !s.signedIn {
			http.Redirect(w, r, "/login?next="+safeNext(r.URL.RequestURI()), http.StatusSeeOther)
			return
		}
		h(w, r, s)
	}
}

// maxForm bounds an action's body.
const maxForm = 1 << 20

// action serves a POST: it needs an existing session and its CSRF token
// in the form, and when signedIn a signed-in session.
func (c *Console) action(h handler, signedIn bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		r.Body = http.MaxBytesReader(w, r.Body, maxForm)
		s := c.sessions.get(r)
		if s == nil || r.ParseForm() != nil ||
			subtle.ConstantTimeCompare([]byte(r.PostForm.Get("csrf")), []byte(s.csrf)) != 1 {
			c.problem(w, r, s, http.StatusForbidden, "Refused", "The form's CSRF token is missing or wrong: reload the page and try again.")
			return
		}
		if signedIn && !s.signedIn {
			http.Redirect(w, r, "/login", http.StatusSeeOther)
			return
		}
		h(w, r, s)
	}
}

// safeNext keeps a redirect target on this site.
func safeNext(p string) string {
	if !strings.HasPrefix(p, "/") || strings.HasPrefix(p, "//") || strings.Contains(p, "\\") {
		return "/runs"
	}
	return p
}

// callCtx is the context of the session's RPCs: its key as the bearer
// token, and a bound for unary calls.
func callCtx(r *http.Request, s *session) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithTimeout(r.Context(), 30*time.Second)
	return withKey(ctx, s), cancel
}

// withKey adds the session's key to an outgoing context.
func withKey(ctx context.Context, s *session) context.Context {
	if s.key == "" {
		return ctx
	}
	return metadata.AppendToOutgoingContext(ctx, "authorization", "Bearer "+s.key)
}

// loginPage is the sign-in form.
func (c *Console) loginPage(w http.ResponseWriter, r *http.Request, s *session) {
	c.render(w, r, s, http.StatusOK, "login.html", "Sign in", loginView{Next: safeNext(r.URL.Query().Get("next")), Open: c.cfg.SignIn == nil})
}

// loginView is the sign-in form's data.
type loginView struct {
	Next, Problem string
	Open          bool
}

// login exchanges an API key for a new signed-in session; the anonymous
// one that carried the form is closed, so its id cannot be fixed upon.
func (c *Console) login(w http.ResponseWriter, r *http.Request, s *session) {
	next := safeNext(r.PostForm.Get("next"))
	if c.cfg.SignIn == nil {
		http.Redirect(w, r, next, http.StatusSeeOther)
		return
	}
	key := strings.TrimSpace(r.PostForm.Get("key"))
	id, ok := c.cfg.SignIn(key)
	if !ok || key == "" {
		c.render(w, r, s, http.StatusUnauthorized, "login.html", "Sign in", loginView{Next: next, Problem: "That API key is not in the keys file."})
		return
	}
	if slices.Equal(id.Roles, []string{auth.RoleWorker}) {
		c.render(w, r, s, http.StatusForbidden, "login.html", "Sign in", loginView{Next: next, Problem: "A worker key cannot read Runs; sign in with another key."})
		return
	}
	c.sessions.close(s)
	fresh := c.sessions.open(c.cfg.SessionTTL)
	fresh.key, fresh.identity, fresh.signedIn = key, id, true
	c.setCookie(w, fresh)
	http.Redirect(w, r, next, http.StatusSeeOther)
}

// logout closes the session.
func (c *Console) logout(w http.ResponseWriter, r *http.Request, s *session) {
	c.sessions.close(s)
	http.SetCookie(w, &http.Cookie{Name: cookieName, Value: "", Path: "/", HttpOnly: true, Secure: c.cfg.Secure, SameSite: http.SameSiteStrictMode, MaxAge: -1})
	http.Redirect(w, r, "/login", http.StatusSeeOther)
}

// SignedIn, CSRF and Identity are for the templates.
func (s *session) SignedIn() bool { return s.signedIn }

// CSRF is the token every form of the session carries.
func (s *session) CSRF() string { return s.csrf }

// Identity is who signed in.
func (s *session) Identity() auth.Identity { return s.identity }
