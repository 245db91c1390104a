package a2a

import (
	"context"
	"net/http"
	"sort"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/errs"
)

// AgentCard is an A2A 1.0 Agent Card (ProtoJSON).
type AgentCard struct {
	Name                 string                    `json:"name"`
	Description          string                    `json:"description"`
	SupportedInterfaces  []AgentInterface          `json:"supportedInterfaces"`
	Provider             *AgentProvider            `json:"provider,omitempty"`
	Version              string                    `json:"version"`
	Capabilities         AgentCapabilities         `json:"capabilities"`
	SecuritySchemes      map[string]map[string]any `json:"securitySchemes"`
	SecurityRequirements []SecurityRequirement     `json:"securityRequirements"`
	DefaultInputModes    []string                  `json:"defaultInputModes"`
	DefaultOutputModes   []string                  `json:"defaultOutputModes"`
	Skills               []AgentSkill              `json:"skills"`
}

// AgentInterface is one binding the agent is served on.
type AgentInterface struct {
	URL             string `json:"url"`
	ProtocolBinding string `json:"protocolBinding"`
	ProtocolVersion string `json:"protocolVersion"`
}

// AgentProvider is who serves the agent.
type AgentProvider struct {
	URL          string `json:"url"`
	Organization string `json:"organization"`
}

// AgentCapabilities are the optional features the agent has.
type AgentCapabilities struct {
	Streaming         bool `json:"streaming"`
	PushNotifications bool `json:"pushNotifications"`
	ExtendedAgentCard bool `json:"extendedAgentCard"`
}

// SecurityRequirement names schemes that together authenticate a call.
type SecurityRequirement struct {
	Schemes map[string]StringList `json:"schemes"`
}

// StringList is a list of scopes.
type StringList struct {
	List []string `json:"list"`
}

// AgentSkill is something the agent does.
type AgentSkill struct {
	ID          string   `json:"id"`
	Name        string   `json:"name"`
	Description string   `json:"description"`
	Tags        []string `json:"tags"`
	InputModes  []string `json:"inputModes,omitempty"`
	OutputModes []string `json:"outputModes,omitempty"`
}

// modes are the media types runsvc agents take and answer in.
var modes = []string{"text/plain", "application/json"}

// descriptionOf is what a Spec's agent says it does.
func descriptionOf(s *runsvcv1.Spec) string {
	if d := s.GetExposure().GetDescription(); d != "" {
		return d
	}
	return "runsvc agent " + s.GetName()
}

// card is the Agent Card of an exposed Spec, its URLs under base.
func (h *Handler) card(s *runsvcv1.Spec, base string) AgentCard {
	url := base + PathPrefix + s.GetName()
	c := AgentCard{
		Name: s.GetName(), Description: descriptionOf(s), Version: s.GetVersion(),
		SupportedInterfaces: []AgentInterface{
			{URL: url, ProtocolBinding: "JSONRPC", ProtocolVersion: "1.0"},
			{URL: url + "/rest", ProtocolBinding: "HTTP+JSON", ProtocolVersion: "1.0"},
		},
		Provider:     &AgentProvider{URL: base, Organization: "runsvc"},
		Capabilities: AgentCapabilities{Streaming: true, PushNotifications: h.opts.Push != nil && h.opts.Tenant != nil},
		SecuritySchemes: map[string]map[string]any{
			"apiKey": {"httpAuthSecurityScheme": map[string]any{"scheme": "Bearer", "description": "a runsvc API key of the Spec's tenant (Authorization: Bearer <key>)"}},
		},
		SecurityRequirements: []SecurityRequirement{{Schemes: map[string]StringList{"apiKey": {List: []string{}}}}},
		DefaultInputModes:    modes, DefaultOutputModes: modes,
		Skills: []AgentSkill{skillOf(s)},
	}
	if h.opts.MutualTLS {
		c.SecuritySchemes["mtls"] = map[string]any{"mtlsSecurityScheme": map[string]any{"description": "a client certificate runsvc trusts (--tls-client-ca)"}}
		c.SecurityRequirements = append(c.SecurityRequirements, SecurityRequirement{Schemes: map[string]StringList{"mtls": {List: []string{}}}})
	}
	return c
}

// skillOf is the one skill of a Spec's agent: what it does, tagged with
// the tools it may use.
func skillOf(s *runsvcv1.Spec) AgentSkill {
	tags := []string{"runsvc"}
	for _, t := range s.GetTools() {
		tags = append(tags, t.GetName())
	}
	sk := AgentSkill{ID: s.GetName(), Name: s.GetName(), Description: descriptionOf(s), Tags: tags}
	if s.GetOutput().GetSchema() != nil {
		sk.OutputModes = []string{"application/json"}
	}
	return sk
}

// baseURL is the scheme and host the caller reached runsvc at.
func baseURL(r *http.Request) string {
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}

// serveCard answers a Spec's Agent Card.
func (h *Handler) serveCard(w http.ResponseWriter, r *http.Request, name string) {
	a, err := agentFor(r.Context(), h.b, name)
	if err != nil {
		h.writeREST(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, h.card(a.spec, baseURL(r)))
}

// serveDefaultCard answers the well-known card at the root: the caller's
// tenant's first exposed Spec by name.
func (h *Handler) serveDefaultCard(w http.ResponseWriter, r *http.Request) {
	s, err := h.firstExposed(r.Context())
	if err != nil {
		h.writeREST(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, h.card(s, baseURL(r)))
}

// firstExposed is the tenant's exposed Spec first by name.
func (h *Handler) firstExposed(ctx context.Context) (*runsvcv1.Spec, error) {
	var exposed []*runsvcv1.Spec
	token := ""
	for {
		res, err := call(ctx, h.b.listSpecs, &runsvcv1.ListSpecsRequest{PageToken: token})
		if err != nil {
			return nil, err
		}
		for _, s := range res.GetSpecs() {
			if s.GetExposure().GetA2A() {
				exposed = append(exposed, s)
			}
		}
		if token = res.GetNextPageToken(); token == "" {
			break
		}
	}
	if len(exposed) == 0 {
		return nil, &errs.SpecNotFound{Name: "(any Spec exposed over A2A)"}
	}
	sort.Slice(exposed, func(i, j int) bool { return exposed[i].GetName() < exposed[j].GetName() })
	return exposed[0], nil
}
