package service

import (
	"context"
	"fmt"

	runsvcv1 "github.com/runsvc/runsvc/gen/runsvc/v1"
	"github.com/runsvc/runsvc/internal/errs"
	"github.com/runsvc/runsvc/internal/spec"
	"github.com/runsvc/runsvc/internal/store"
)

type specServer struct {
	runsvcv1.UnimplementedSpecServiceServer
	*Service
}

func (s specServer) PublishSpec(ctx context.Context, req *runsvcv1.PublishSpecRequest) (*runsvcv1.PublishSpecResponse, error) {
	if req.GetSpec() == nil {
		return nil, errs.BadField("spec", "is required")
	}
	sp, unreadable := specFromProto(req.GetSpec())
	v, created, err := s.specs.Publish(ctx, tenantOf(ctx), sp, unreadable...)
	if err != nil {
		return nil, err
	}
	return &runsvcv1.PublishSpecResponse{Spec: specToProto(v), Created: created}, nil
}

func (s specServer) GetSpec(ctx context.Context, req *runsvcv1.GetSpecRequest) (*runsvcv1.GetSpecResponse, error) {
	if req.GetName() == "" {
		return nil, errs.BadField("name", "is required")
	}
	v, err := s.specs.Get(ctx, tenantOf(ctx), req.GetName(), req.GetVersion())
	if err != nil {
		return nil, err
	}
	return &runsvcv1.GetSpecResponse{Spec: specToProto(v)}, nil
}

func (s specServer) ListSpecs(ctx context.Context, req *runsvcv1.ListSpecsRequest) (*runsvcv1.ListSpecsResponse, error) {
	if req.GetPageSize() < 0 {
		return nil, errs.BadField("page_size", "must not be negative")
	}
	vs, next, err := s.specs.List(ctx, tenantOf(ctx), store.SpecQuery{Name: req.GetName(), PageSize: int(req.GetPageSize()), PageToken: req.GetPageToken()})
	if err != nil {
		return nil, err
	}
	out := &runsvcv1.ListSpecsResponse{NextPageToken: next}
	for _, v := range vs {
		out.Specs = append(out.Specs, specToProto(v))
	}
	return out, nil
}

// kinds is the domain kind of each ToolKind; kindToProto reads it
// backwards.
var kinds = map[runsvcv1.ToolKind]spec.Kind{
	runsvcv1.ToolKind_TOOL_KIND_CLIENT:  spec.KindClient,
	runsvcv1.ToolKind_TOOL_KIND_WORKER:  spec.KindWorker,
	runsvcv1.ToolKind_TOOL_KIND_HTTP:    spec.KindHTTP,
	runsvcv1.ToolKind_TOOL_KIND_MCP:     spec.KindMCP,
	runsvcv1.ToolKind_TOOL_KIND_BUILTIN: spec.KindBuiltin,
	runsvcv1.ToolKind_TOOL_KIND_A2A:     spec.KindA2A,
}

var protoKinds = invert(kinds)

// kindToProto returns k's ToolKind, UNSPECIFIED for an unknown kind.
func kindToProto(k spec.Kind) runsvcv1.ToolKind { return protoKinds[k] }

// specFromProto converts a Spec, reporting fields that cannot be read
// (bad durations, unknown enum values); everything else is validated by
// spec.Validate.
func specFromProto(p *runsvcv1.Spec) (spec.Spec, []errs.FieldViolation) {
	var bad []errs.FieldViolation
	s := spec.Spec{
		Name: p.GetName(), Instructions: p.GetInstructions(), Delegates: p.GetDelegates(),
		Model: modelFromProto(p.GetModel(), &bad),
		Bus:   spec.Bus{Enabled: p.GetBus().GetEnabled(), Channels: p.GetBus().GetChannels()},
	}
	strategy, ok := strategyFromProto[p.GetThreadStrategy()]
	if !ok {
		bad = append(bad, errs.FieldViolation{Field: "thread_strategy", Description: fmt.Sprintf("%v is not a thread strategy", p.GetThreadStrategy())})
	}
	s.ThreadStrategy = strategy
	for i, t := range p.GetTools() {
		path := fmt.Sprintf("tools[%d]", i)
		kind, ok := kinds[t.GetKind()]
		if !ok && t.GetKind() != runsvcv1.ToolKind_TOOL_KIND_UNSPECIFIED {
			bad = append(bad, errs.FieldViolation{Field: path + ".kind", Description: fmt.Sprintf("unknown tool kind %d: use CLIENT, WORKER, HTTP, MCP, BUILTIN or A2A", t.GetKind())})
		}
		tool := spec.Tool{
			Name: t.GetName(), Kind: kind, Description: t.GetDescription(), Parameters: structField(path+".parameters", t.GetParameters(), &bad),
			RaiseOnError: t.GetRaiseOnError(), Timeout: durationField(path+".timeout", t.GetTimeout(), &bad),
			Pure: t.GetPure(),
		}
		deliveryFromProto(&tool, t, path, &bad)
		if h := t.GetHttp(); h != nil {
			tool.HTTP = &spec.HTTPTool{URL: h.GetUrl(), Credential: h.GetCredential()}
		}
		if mc := t.GetMcp(); mc != nil {
			tool.MCP = mcpToolFromProto(mc)
		}
		if a := t.GetA2A(); a != nil {
			tool.A2A = &spec.A2ATool{
				CardURL: a.GetCardUrl(), URL: a.GetUrl(), Binding: a.GetBinding(), Credential: a.GetCredential(),
				PollInterval: durationField(path+".a2a.poll_interval", a.GetPollInterval(), &bad),
			}
		}
		s.Tools = append(s.Tools, tool)
	}
	l := p.GetLimits()
	s.Limits = spec.Limits{
		MaxToolRounds: int(l.GetMaxToolRounds()), MaxTurns: int(l.GetMaxTurns()),
		Deadline:    durationField("limits.deadline", l.GetDeadline(), &bad),
		TokenBudget: l.GetTokenBudget(), CostBudget: l.GetCostBudget(),
		TransientRetryBudget: int(l.GetTransientRetryBudget()), MaxDelegationDepth: int(l.GetMaxDelegationDepth()),
		MaxDelegationsPerTurn: int(l.GetMaxDelegationsPerTurn()),
		OnExhausted:           budgetActionFrom(l.GetOnExhausted()),
	}
	e := p.GetSuspensionExpiry()
	s.Expiry = spec.Expiry{
		ToolResults: durationField("suspension_expiry.tool_results", e.GetToolResults(), &bad),
		Approval:    durationField("suspension_expiry.approval", e.GetApproval(), &bad),
		Question:    durationField("suspension_expiry.question", e.GetQuestion(), &bad),
		Children:    durationField("suspension_expiry.children", e.GetChildren(), &bad),
	}
	for _, c := range p.GetCredentials() {
		s.Credentials = append(s.Credentials, c.GetName())
	}
	if o := p.GetOutput(); o != nil {
		s.Output = &spec.Output{Schema: structField("output.schema", o.GetSchema(), &bad)}
	}
	s.MCPServers = mcpServersFromProto(p.GetMcpServers(), &bad)
	if r := p.GetRetention(); r != nil && (r.GetSettledRuns() != nil || r.GetDeleteMemory()) {
		s.Retention = &spec.Retention{SettledRuns: durationField("retention.settled_runs", r.GetSettledRuns(), &bad), DeleteMemory: r.GetDeleteMemory()}
	}
	s.Compaction = compactionFromProto(p.GetCompaction(), &bad)
	if t := p.GetTimers(); t.GetMaxSleep() != nil {
		s.Timers = &spec.Timers{MaxSleep: durationField("timers.max_sleep", t.GetMaxSleep(), &bad)}
	}
	s.Concurrency = concurrencyFromProto(p.GetConcurrency(), &bad)
	if x := p.GetExposure(); x.GetA2A() || x.GetMcp() || x.GetDescription() != "" || x.GetAlias() != "" {
		s.Exposure = &spec.Exposure{A2A: x.GetA2A(), MCP: x.GetMcp(), Description: x.GetDescription(), Alias: x.GetAlias()}
	}
	return s, bad
}

// modelFromProto converts a Spec's model reference, its controls, pricing,
// script and fallbacks, adding what is wrong to bad.
func modelFromProto(m *runsvcv1.ModelRef, bad *[]errs.FieldViolation) spec.Model {
	return modelAt("model", m, bad)
}

// modelAt converts the model reference at path (the Spec's model or one of
// its fallbacks).
func modelAt(path string, m *runsvcv1.ModelRef, bad *[]errs.FieldViolation) spec.Model {
	out := spec.Model{
		Provider: m.GetProvider(), Model: m.GetModel(), BaseURL: m.GetBaseUrl(), APIKeyCredential: m.GetApiKeyCredential(),
		CallTimeout:     durationField(path+".call_timeout", m.GetCallTimeout(), bad),
		MaxOutputTokens: m.GetMaxOutputTokens(), Stop: m.GetStop(), ToolChoice: m.GetToolChoice(),
		ContextWindow: m.GetContextWindow(),
	}
	if m != nil {
		out.Temperature, out.TopP, out.ParallelToolCalls = copied(m.Temperature), copied(m.TopP), copied(m.ParallelToolCalls)
	}
	if pr := m.GetPricing(); pr != nil {
		out.Pricing = &spec.Pricing{InputPerMillion: pr.GetInputPerMillion(), OutputPerMillion: pr.GetOutputPerMillion()}
	}
	for i, t := range m.GetScript().GetTurns() {
		path := fmt.Sprintf("%s.script.turns[%d]", path, i)
		turn := spec.Turn{
			Text:  t.GetText(),
			Usage: spec.Usage{InputTokens: t.GetUsage().GetInputTokens(), OutputTokens: t.GetUsage().GetOutputTokens()},
			Delay: durationField(path+".delay", t.GetDelay(), bad),
		}
		for j, c := range t.GetToolCalls() {
			turn.ToolCalls = append(turn.ToolCalls, spec.ScriptCall{Name: c.GetName(), Arguments: structField(fmt.Sprintf("%s.tool_calls[%d].arguments", path, j), c.GetArguments(), bad)})
		}
		if f := t.GetFail(); f != nil {
			turn.Fail = &spec.Failure{
				HTTPStatus: int(f.GetHttpStatus()), Times: int(f.GetTimes()), Message: f.GetMessage(),
				RetryAfter: durationField(path+".fail.retry_after", f.GetRetryAfter(), bad),
			}
		}
		out.Script = append(out.Script, turn)
	}
	out.FallbackRetryAfterOver = durationField(path+".fallback_retry_after_over", m.GetFallbackRetryAfterOver(), bad)
	out.FallbackOnRejected = m.GetFallbackOnRejected()
	for i, f := range m.GetFallbacks() {
		out.Fallbacks = append(out.Fallbacks, modelAt(fmt.Sprintf("%s.fallbacks[%d]", path, i), f, bad))
	}
	return out
}

func specToProto(v *spec.Version) *runsvcv1.Spec {
	p := &runsvcv1.Spec{
		Name: v.Name, Instructions: v.Instructions, Delegates: v.Delegates, Version: v.Version, CreateTime: ts(v.CreateTime),
		Model: modelToProto(v.Model),
		Limits: &runsvcv1.Limits{
			MaxToolRounds: int32(v.Limits.MaxToolRounds), MaxTurns: int32(v.Limits.MaxTurns), Deadline: dur(v.Limits.Deadline),
			TokenBudget: v.Limits.TokenBudget, CostBudget: v.Limits.CostBudget,
			TransientRetryBudget: int32(v.Limits.TransientRetryBudget), MaxDelegationDepth: int32(v.Limits.MaxDelegationDepth),
			MaxDelegationsPerTurn: int32(v.Limits.MaxDelegationsPerTurn),
			OnExhausted:           budgetActionToProto[v.Limits.OnExhausted],
		},
		SuspensionExpiry: &runsvcv1.SuspensionExpiry{
			ToolResults: dur(v.Expiry.ToolResults), Approval: dur(v.Expiry.Approval),
			Question: dur(v.Expiry.Question), Children: dur(v.Expiry.Children),
		},
	}
	p.ThreadStrategy = strategyToProto(v.ThreadStrategy)
	if v.Bus.Enabled || len(v.Bus.Channels) > 0 {
		p.Bus = &runsvcv1.BusConfig{Enabled: v.Bus.Enabled, Channels: v.Bus.Channels}
	}
	for _, t := range v.Tools {
		pt := &runsvcv1.Tool{
			Name: t.Name, Kind: kindToProto(t.Kind), Description: t.Description, Parameters: toStruct(t.Parameters),
			RaiseOnError: t.RaiseOnError, Timeout: dur(t.Timeout),
			Delivery: protoDeliveries[t.Delivery], InDoubt: protoInDoubts[t.InDoubt], Pure: t.Pure,
		}
		if h := t.HTTP; h != nil {
			pt.Http = &runsvcv1.HttpTool{Url: h.URL, Credential: h.Credential}
		}
		if mc := t.MCP; mc != nil {
			pt.Mcp = mcpToolToProto(mc)
		}
		if a := t.A2A; a != nil {
			pt.A2A = &runsvcv1.A2ATool{CardUrl: a.CardURL, Url: a.URL, Binding: a.Binding, Credential: a.Credential, PollInterval: dur(a.PollInterval)}
		}
		p.Tools = append(p.Tools, pt)
	}
	for _, c := range v.Credentials {
		p.Credentials = append(p.Credentials, &runsvcv1.Credential{Name: c})
	}
	p.Compaction = compactionToProto(v.Compaction)
	if o := v.Output; o != nil {
		p.Output = &runsvcv1.OutputSpec{Schema: toStruct(o.Schema)}
	}
	p.McpServers = mcpServersToProto(v.MCPServers)
	if x := v.Exposure; x != nil {
		p.Exposure = &runsvcv1.Exposure{A2A: x.A2A, Mcp: x.MCP, Description: x.Description, Alias: x.Alias}
	}
	if r := v.Retention; r != nil {
		p.Retention = &runsvcv1.Retention{SettledRuns: dur(r.SettledRuns), DeleteMemory: r.DeleteMemory}
	}
	if t := v.Timers; t != nil {
		p.Timers = &runsvcv1.Timers{MaxSleep: dur(t.MaxSleep)}
	}
	p.Concurrency = concurrencyToProto(v.Concurrency)
	return p
}

// modelToProto converts a Spec's model, with its fallbacks, for the wire.
func modelToProto(m spec.Model) *runsvcv1.ModelRef {
	p := &runsvcv1.ModelRef{
		Provider: m.Provider, Model: m.Model, BaseUrl: m.BaseURL,
		ApiKeyCredential: m.APIKeyCredential, CallTimeout: dur(m.CallTimeout),
		Temperature: m.Temperature, TopP: m.TopP, MaxOutputTokens: m.MaxOutputTokens,
		Stop: m.Stop, ToolChoice: m.ToolChoice, ParallelToolCalls: m.ParallelToolCalls,
		ContextWindow: m.ContextWindow, FallbackRetryAfterOver: dur(m.FallbackRetryAfterOver),
		FallbackOnRejected: m.FallbackOnRejected,
	}
	if pr := m.Pricing; pr != nil {
		p.Pricing = &runsvcv1.Pricing{InputPerMillion: pr.InputPerMillion, OutputPerMillion: pr.OutputPerMillion}
	}
	if len(m.Script) > 0 {
		p.Script = &runsvcv1.Script{}
		for _, t := range m.Script {
			pt := &runsvcv1.ScriptTurn{Text: t.Text, Delay: dur(t.Delay)}
			if t.Usage != (spec.Usage{}) {
				pt.Usage = &runsvcv1.ScriptUsage{InputTokens: t.Usage.InputTokens, OutputTokens: t.Usage.OutputTokens}
			}
			for _, c := range t.ToolCalls {
				pt.ToolCalls = append(pt.ToolCalls, &runsvcv1.ScriptToolCall{Name: c.Name, Arguments: toStruct(c.Arguments)})
			}
			if f := t.Fail; f != nil {
				pt.Fail = &runsvcv1.ScriptFailure{HttpStatus: int32(f.HTTPStatus), RetryAfter: dur(f.RetryAfter), Times: int32(f.Times), Message: f.Message}
			}
			p.Script.Turns = append(p.Script.Turns, pt)
		}
	}
	for _, f := range m.Fallbacks {
		p.Fallbacks = append(p.Fallbacks, modelToProto(f))
	}
	return p
}

// copied returns a copy of *p, or nil: a Spec shares nothing with the
// request it came from.
func copied[T any](p *T) *T {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

// compactionToProto converts a Spec's compaction for the wire.
func compactionToProto(c *spec.Compaction) *runsvcv1.Compaction {
	if c == nil {
		return nil
	}
	p := &runsvcv1.Compaction{}
	if m := c.Model; m != nil {
		p.Model = &runsvcv1.ModelRef{
			Provider: m.Provider, Model: m.Model, BaseUrl: m.BaseURL, ApiKeyCredential: m.APIKeyCredential, CallTimeout: dur(m.CallTimeout),
		}
	}
	return p
}

// compactionFromProto converts a Spec's compaction; a scripted summariser
// keeps only its turns' texts.
func compactionFromProto(c *runsvcv1.Compaction, bad *[]errs.FieldViolation) *spec.Compaction {
	if c == nil {
		return nil
	}
	out := &spec.Compaction{}
	if cm := c.GetModel(); cm != nil {
		out.Model = &spec.Model{
			Provider: cm.GetProvider(), Model: cm.GetModel(), BaseURL: cm.GetBaseUrl(), APIKeyCredential: cm.GetApiKeyCredential(),
			CallTimeout: durationField("compaction.model.call_timeout", cm.GetCallTimeout(), bad),
		}
		for _, t := range cm.GetScript().GetTurns() {
			out.Model.Script = append(out.Model.Script, spec.Turn{Text: t.GetText()})
		}
	}
	return out
}

// budgetActionFrom converts limits.on_exhausted; an unknown number
// converts to an action validation refuses.
func budgetActionFrom(b runsvcv1.BudgetExhausted) spec.BudgetAction {
	switch b {
	case runsvcv1.BudgetExhausted_BUDGET_EXHAUSTED_UNSPECIFIED:
		return ""
	case runsvcv1.BudgetExhausted_BUDGET_EXHAUSTED_FAIL:
		return spec.BudgetFail
	case runsvcv1.BudgetExhausted_BUDGET_EXHAUSTED_ASK:
		return spec.BudgetAsk
	}
	return spec.BudgetAction(b.String())
}

// budgetActionToProto converts limits.on_exhausted for the wire.
var (
	budgetActionToProto = map[spec.BudgetAction]runsvcv1.BudgetExhausted{
		spec.BudgetFail: runsvcv1.BudgetExhausted_BUDGET_EXHAUSTED_FAIL,
		spec.BudgetAsk:  runsvcv1.BudgetExhausted_BUDGET_EXHAUSTED_ASK,
	}
)

var concurrencyModes = map[runsvcv1.ConcurrencyMode]string{
	runsvcv1.ConcurrencyMode_CONCURRENCY_MODE_UNSPECIFIED: "",
	runsvcv1.ConcurrencyMode_CONCURRENCY_MODE_QUEUE:       spec.ConcurrencyQueue,
	runsvcv1.ConcurrencyMode_CONCURRENCY_MODE_REJECT:      spec.ConcurrencyReject,
	runsvcv1.ConcurrencyMode_CONCURRENCY_MODE_REPLACE:     spec.ConcurrencyReplace,
}

var protoConcurrencyModes = invert(concurrencyModes)

// concurrencyFromProto converts a Spec's concurrency, nil for none, adding
// an unknown mode to bad; spec.Validate checks the rest.
func concurrencyFromProto(c *runsvcv1.Concurrency, bad *[]errs.FieldViolation) *spec.Concurrency {
	if c == nil {
		return nil
	}
	mode, ok := concurrencyModes[c.GetMode()]
	if !ok {
		*bad = append(*bad, errs.FieldViolation{Field: "concurrency.mode", Description: fmt.Sprintf("unknown concurrency mode %d: use QUEUE, REJECT or REPLACE", c.GetMode())})
	}
	return &spec.Concurrency{Key: c.GetKey(), Limit: int(c.GetLimit()), Mode: mode}
}

// concurrencyToProto converts a Spec's concurrency for the wire.
func concurrencyToProto(c *spec.Concurrency) *runsvcv1.Concurrency {
	if c == nil {
		return nil
	}
	return &runsvcv1.Concurrency{Key: c.Key, Limit: int32(c.Limit), Mode: protoConcurrencyModes[c.Mode]}
}
