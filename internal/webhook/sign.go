package webhook

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"time"
)

// SecretPrefix starts every signing secret (Standard Webhooks).
const SecretPrefix = "whsec_"

// secretBytes is how many random bytes a secret holds (the spec asks for
// 24 to 64).
const secretBytes = 32

// NewSecret returns a new signing secret: "whsec_" + base64 of random bytes.
func NewSecret() string {
	b := make([]byte, secretBytes)
	_, _ = rand.Read(b)
	return SecretPrefix + base64.StdEncoding.EncodeToString(b)
}

// Sign returns the Standard Webhooks signature of one message with one
// secret: "v1," + base64 of HMAC-SHA256, keyed with the secret's decoded
// bytes, over "{id}.{timestamp}.{body}".
func Sign(secret, id string, timestamp time.Time, body []byte) (string, error) {
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, SecretPrefix))
	if err != nil {
		return "", errors.New("webhook: the secret is not base64")
	}
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(id))
	mac.Write([]byte{'.'})
	mac.Write([]byte(strconv.FormatInt(timestamp.Unix(), 10)))
	mac.Write([]byte{'.'})
	mac.Write(body)
	return "v1," + base64.StdEncoding.EncodeToString(mac.Sum(nil)), nil
}

// Secrets are a subscription's signing secrets: the current one and,
// during a rotation, the previous one until PreviousExpires.
type Secrets struct {
	Current         string    `json:"current"`
	Previous        string    `json:"previous,omitempty"`
	PreviousExpires time.Time `json:"previousExpires,omitzero"`
	// Push, on a push config (PushEvent), replaces signing with A2A's
	// token and credentials.
	Push *Push `json:"push,omitempty"`
}

// decodeSecrets reads a subscription's stored secrets.
func decodeSecrets(b []byte) (Secrets, error) {
	var s Secrets
	err := json.Unmarshal(b, &s)
	return s, err
}

func (s Secrets) encode() []byte {
	b, _ := json.Marshal(s)
	return b
}

// Active returns the secrets that sign at now: the current one, and the
// previous one until it expires.
func (s Secrets) Active(now time.Time) []string {
	out := []string{s.Current}
	if s.Previous != "" && now.Before(s.PreviousExpires) {
		out = append(out, s.Previous)
	}
	return out
}

// SignatureHeader is the webhook-signature header: one signature per
// active secret, space-separated, as the spec allows during a rotation.
func (s Secrets) SignatureHeader(id string, timestamp time.Time, body []byte) (string, error) {
	var sigs []string
	for _, secret := range s.Active(timestamp) {
		sig, err := Sign(secret, id, timestamp, body)
		if err != nil {
			return "", err
		}
		sigs = append(sigs, sig)
	}
	return strings.Join(sigs, " "), nil
}
