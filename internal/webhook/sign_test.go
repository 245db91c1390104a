package webhook

import (
	"strings"
	"testing"
	"time"
)

// TestSignMatchesTheSpecsVector: the Standard Webhooks reference
// libraries' test vector.
func TestSignMatchesTheSpecsVector(t *testing.T) {
	got, err := Sign("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "msg_p5jXN8AQM9LWM0D4loKWxJek", time.Unix(1614265330, 0), []byte(`{"test": 2432232314}`))
	if want := "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="; err != nil || got != want {
		t.Fatalf("Sign = %q, %v; want %q", got, err, want)
	}
}

func TestNewSecretIsWhsecBase64(t *testing.T) {
	s := NewSecret()
	if !strings.HasPrefix(s, SecretPrefix) || len(s) < 40 {
		t.Fatalf("NewSecret = %q", s)
	}
	if _, err := Sign(s, "msg_1", time.Unix(1, 0), nil); err != nil {
		t.Fatal(err)
	}
	if s == NewSecret() {
		t.Fatal("two secrets are the same")
	}
}

// TestRotationSignsWithBoth: during a rotation the header has both
// signatures; once the previous secret expires, only the current one.
func TestRotationSignsWithBoth(t *testing.T) {
	now := time.Unix(1700000000, 0)
	s := Secrets{Current: NewSecret(), Previous: NewSecret(), PreviousExpires: now.Add(time.Hour)}
	h, err := s.SignatureHeader("msg_1", now, []byte("{}"))
	if err != nil || len(strings.Fields(h)) != 2 {
		t.Fatalf("header during the rotation = %q, %v", h, err)
	}
	prev, _ := Sign(s.Previous, "msg_1", now, []byte("{}"))
	if !strings.Contains(h, prev) {
		t.Errorf("header %q lacks the previous secret's signature", h)
	}
	after, _ := s.SignatureHeader("msg_1", now.Add(2*time.Hour), []byte("{}"))
	if len(strings.Fields(after)) != 1 || strings.Contains(after, prev) {
		t.Errorf("header after the previous secret expired = %q", after)
	}
}
