package httpapi

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"net/http"

	"gopkg.in/yaml.v3"
)

// openAPIYAML is the OpenAPI 3 document of the REST surface, which `make
// generate` writes from the protos' google.api.http rules (gnostic's
// protoc-gen-openapi, see buf.gen.yaml).
//
//go:embed openapi/openapi.yaml
var openAPIYAML []byte

// openAPIPath is where the document is served, as JSON.
const openAPIPath = "/openapi.json"

// openAPIJSON is the document as JSON, converted once.
func openAPIJSON() ([]byte, error) {
	var doc any
	if err := yaml.Unmarshal(openAPIYAML, &doc); err != nil {
		return nil, fmt.Errorf("the embedded OpenAPI document: %w", err)
	}
	return json.Marshal(doc)
}

// serveOpenAPI answers GET /openapi.json. It needs no key: it says what
// the API is, nothing of anyone's data.
func serveOpenAPI(doc []byte) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(doc)
	}
}
