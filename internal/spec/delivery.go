package spec

// Delivery is how often runsvc may make one tool call.
type Delivery string

// Deliveries.
const (
	// AtLeastOnce makes a call again when its process died while it was in
	// flight (the default).
	AtLeastOnce Delivery = "at_least_once"
	// AtMostOnce never makes a call again once it started: a call in
	// flight when its process died is closed as in doubt.
	AtMostOnce Delivery = "at_most_once"
)

// InDoubt is what happens to an at-most-once call in doubt.
type InDoubt string

// In-doubt handling.
const (
	// InDoubtTellModel answers the call with an in-doubt error the model
	// sees (the default); with raise_on_error the Run fails.
	InDoubtTellModel InDoubt = "tell_model"
	// InDoubtAsk suspends the Run for APPROVAL, asking a person whether the
	// call happened.
	InDoubtAsk InDoubt = "ask"
)

// AtMostOnce reports whether t's calls are never made twice.
func (t Tool) AtMostOnce() bool { return t.Delivery == AtMostOnce }

// delivery checks a tool's delivery and in-doubt settings.
func (v *validator) delivery(p string, t Tool) {
	switch t.Delivery {
	case "", AtLeastOnce:
	case AtMostOnce:
		if t.Kind != KindWorker && t.Kind != KindHTTP && t.Kind != KindMCP && t.Kind != KindA2A {
			v.add(p+".delivery", "at_most_once is for worker, http and mcp tools and for a2a tools, which runsvc calls; a %s tool is not", t.Kind)
		}
	default:
		v.add(p+".delivery", "unknown delivery %q: use at_least_once or at_most_once", t.Delivery)
	}
	switch t.InDoubt {
	case "", InDoubtTellModel:
	case InDoubtAsk:
		if t.Delivery != AtMostOnce {
			v.add(p+".in_doubt", "ask needs delivery at_most_once; an at-least-once call is never in doubt")
		}
	default:
		v.add(p+".in_doubt", "unknown in_doubt %q: use tell_model or ask", t.InDoubt)
	}
}
