package console_test

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/runsvc/runsvc/internal/auth"
	"github.com/runsvc/runsvc/internal/clock"
	"github.com/runsvc/runsvc/internal/console"
	"github.com/runsvc/runsvc/internal/testing/testserver"
	"github.com/runsvc/runsvc/internal/testing/tlstest"
)

// site is a console over a real runsvc, signing in with a real keys file,
// on a fake clock, served on 127.0.0.1.
type site struct {
	srv    *testserver.Server
	url    string
	clk    *clock.Fake
	keys   map[string]string
	client *http.Client
}

func startSite(t *testing.T, secure bool) *site {
	t.Helper()
	srv := testserver.Start(t)
	s := &site{srv: srv, clk: clock.NewFake(time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)), keys: map[string]string{}}
	var entries []auth.Entry
	for _, role := range []string{auth.RoleRunner, auth.RoleWorker} {
		key, e := tlstest.Key(t, "acme-"+role, "acme", role)
		s.keys[role] = key
		entries = append(entries, e)
	}
	file := filepath.Join(t.TempDir(), "keys.json")
	tlstest.WriteKeys(t, file, entries)
	keys, err := auth.LoadKeys(file, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	c, err := console.New(console.Config{Conn: srv.Conn, SignIn: keys.ByKey, Secure: secure, Clock: s.clk, SessionTTL: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(c.Handler())
	t.Cleanup(hs.Close)
	jar, _ := cookiejar.New(nil)
	s.url = hs.URL
	s.client = &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	return s
}

var csrfField = regexp.MustCompile(`name="csrf" value="([^"]+)"`)

// csrf fetches the sign-in form and returns its CSRF token.
func (s *site) csrf(t *testing.T) string {
	t.Helper()
	resp, body := s.get(t, "/login")
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /login: %d", resp.StatusCode)
	}
	m := csrfField.FindStringSubmatch(body)
	if m == nil {
		t.Fatal("no CSRF token in the sign-in form")
	}
	return m[1]
}

func (s *site) get(t *testing.T, path string) (*http.Response, string) {
	t.Helper()
	resp, err := s.client.Get(s.url + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

func (s *site) post(t *testing.T, path string, form url.Values) (*http.Response, string) {
	t.Helper()
	resp, err := s.client.PostForm(s.url+path, form)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

// sessionCookie is the Set-Cookie line of the session in resp.
func sessionCookie(resp *http.Response) string {
	for _, v := range resp.Header.Values("Set-Cookie") {
		if strings.HasPrefix(v, "runsvc_session=") {
			return v
		}
	}
	return ""
}

// TestSessions: the session cookie's attributes, its expiry on the clock,
// the CSRF check, a fresh session id at sign-in, and the headers of every
// page. No browser needed.
func TestSessions(t *testing.T) {
	t.Run("cookie is HttpOnly, SameSite=Strict, expiring; Secure only over TLS", func(t *testing.T) {
		for _, secure := range []bool{false, true} {
			s := startSite(t, secure)
			token := s.csrf(t)
			resp, _ := s.post(t, "/login", url.Values{"csrf": {token}, "key": {s.keys[auth.RoleRunner]}, "next": {"/runs"}})
			c := sessionCookie(resp)
			if resp.StatusCode != http.StatusSeeOther || c == "" {
				t.Fatalf("sign-in: %d, cookie %q", resp.StatusCode, c)
			}
			for _, want := range []string{"HttpOnly", "SameSite=Strict", "Max-Age=3600", "Path=/"} {
				if !strings.Contains(c, want) {
					t.Errorf("cookie %q lacks %s", c, want)
				}
			}
			if strings.Contains(c, "Secure") != secure {
				t.Errorf("secure=%v but cookie is %q", secure, c)
			}
		}
	})
	t.Run("sign-in opens a new session and it expires", func(t *testing.T) {
		s := startSite(t, false)
		resp, _ := s.get(t, "/runs")
		if resp.StatusCode != http.StatusSeeOther || !strings.HasPrefix(resp.Header.Get("Location"), "/login") {
			t.Fatalf("before sign-in /runs: %d %s", resp.StatusCode, resp.Header.Get("Location"))
		}
		before := sessionCookie(resp)
		token := s.csrf(t)
		resp, _ = s.post(t, "/login", url.Values{"csrf": {token}, "key": {s.keys[auth.RoleRunner]}})
		after := sessionCookie(resp)
		if after == "" || strings.Split(after, ";")[0] == strings.Split(before, ";")[0] {
			t.Fatalf("sign-in kept the session id: %q -> %q", before, after)
		}
		if resp, _ := s.get(t, "/runs"); resp.StatusCode != http.StatusOK {
			t.Fatalf("signed in, /runs: %d", resp.StatusCode)
		}
		s.clk.Advance(59 * time.Minute)
		if resp, _ := s.get(t, "/runs"); resp.StatusCode != http.StatusOK {
			t.Fatalf("after 59m, /runs: %d", resp.StatusCode)
		}
		s.clk.Advance(time.Minute)
		if resp, _ := s.get(t, "/runs"); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("after the session's hour, /runs: %d, want a redirect to sign in", resp.StatusCode)
		}
	})
	t.Run("refusals", func(t *testing.T) {
		s := startSite(t, false)
		token := s.csrf(t)
		cases := []struct {
			name string
			form url.Values
			code int
			says string
		}{
			{"no CSRF token", url.Values{"key": {s.keys[auth.RoleRunner]}}, http.StatusForbidden, "CSRF"},
			{"wrong CSRF token", url.Values{"csrf": {token + "x"}, "key": {s.keys[auth.RoleRunner]}}, http.StatusForbidden, "CSRF"},
			{"unknown key", url.Values{"csrf": {token}, "key": {"nope"}}, http.StatusUnauthorized, "not in the keys file"},
			{"worker key", url.Values{"csrf": {token}, "key": {s.keys[auth.RoleWorker]}}, http.StatusForbidden, "worker key"},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				resp, body := s.post(t, "/login", c.form)
				if resp.StatusCode != c.code || !strings.Contains(body, c.says) {
					t.Fatalf("%d %q, want %d saying %q", resp.StatusCode, excerpt(body), c.code, c.says)
				}
			})
		}
	})
}

// TestHeaders: every response carries the strict CSP and nosniff.
func TestHeaders(t *testing.T) {
	s := startSite(t, false)
	for _, path := range []string{"/login", "/runs", "/errors", "/static/live.js"} {
		resp, _ := s.get(t, path)
		csp := resp.Header.Get("Content-Security-Policy")
		if !strings.Contains(csp, "script-src 'self'") || strings.Contains(csp, "unsafe-inline") || !strings.Contains(csp, "default-src 'none'") {
			t.Errorf("%s: CSP %q", path, csp)
		}
		if resp.Header.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("%s: no nosniff", path)
		}
	}
}
