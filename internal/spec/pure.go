package spec

// Pure tools have no side effect: a replay of a recorded Run may make a
// call to one that the recording does not hold, where a call to any other
// tool is fenced (never made). Only tools runsvc itself calls (worker,
// http, mcp) and the built-ins that neither suspend, delegate, nor write
// may be declared pure.

// pureBuiltins are the built-ins whose calls only read.
var pureBuiltins = map[string]bool{BuiltinMemoryGet: true}

// pure checks a tool's pure setting.
func (v *validator) pure(p string, t Tool) {
	if !t.Pure {
		return
	}
	switch {
	case t.Kind == KindWorker, t.Kind == KindHTTP, t.Kind == KindMCP:
		if t.AtMostOnce() {
			v.add(p+".pure", "a pure tool has no side effect, so it needs no at_most_once delivery: declare one or the other")
		}
	case t.Kind == KindBuiltin && pureBuiltins[t.Name]:
	case t.Kind == KindBuiltin:
		v.add(p+".pure", "the built-in %s suspends, delegates or writes: it cannot be pure", t.Name)
	default:
		v.add(p+".pure", "pure is for worker, http, mcp and read-only built-in tools, which runsvc calls; a %s tool is not", t.Kind)
	}
}
