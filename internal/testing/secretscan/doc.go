// Package secretscan holds the secret scan (issue 12, DESIGN §6): a Spec
// whose credential every tool kind and the model echo back in every way
// they can, after which the credential must appear nowhere runsvc keeps or
// answers anything.
package secretscan
