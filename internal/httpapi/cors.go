package httpapi

import (
	"net/http"
	"time"

	connectcors "connectrpc.com/cors"
	"github.com/rs/cors"
)

// withCORS lets browser pages from origins call h (Connect, gRPC-Web and
// REST), answering preflights; with no origins it is h itself and no
// cross-origin call is allowed. Credentials (cookies) are never allowed:
// the API authenticates with the Authorization header only, so the
// console's session cookie opens no path into it.
func withCORS(h http.Handler, origins []string) http.Handler {
	if len(origins) == 0 {
		return h
	}
	return cors.New(cors.Options{
		AllowedOrigins: origins,
		AllowedMethods: append(connectcors.AllowedMethods(), http.MethodPut, http.MethodPatch, http.MethodDelete),
		AllowedHeaders: append(connectcors.AllowedHeaders(), "Authorization", "Last-Event-ID"),
		ExposedHeaders: append(connectcors.ExposedHeaders(), "Retry-After"),
		MaxAge:         int((2 * time.Hour).Seconds()),
	}).Handler(h)
}
