// Package a2ajs runs @a2a-js/sdk's client (npm, A2A 1.0) against runsvc's
// A2A agents (internal/a2a): client.mjs, driven by this package's tests
// over loopback on both bindings, and by internal/testing/blackbox's kill
// test. Install it with `npm ci` here; without node or node_modules the
// tests skip (fail with RUNSVC_REQUIRE_ALL=1).
package a2ajs
