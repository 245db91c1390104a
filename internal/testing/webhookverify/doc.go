// Package webhookverify checks the signatures of recorded webhook
// deliveries with npm's standardwebhooks (verify.mjs), an implementation
// of the Standard Webhooks spec independent of runsvc's own signing.
// Run npm ci in this directory first.
package webhookverify
