package cli

// JSONError is the --json error object on stderr, for the external tests
// to decode it with the type that writes it.
type JSONError = jsonError
