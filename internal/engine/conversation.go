package engine

import (
	"slices"
	"sync"

	"github.com/runsvc/runsvc/internal/lru"
	"github.com/runsvc/runsvc/internal/model"
	"github.com/runsvc/runsvc/internal/runlog"
)

// conversationCacheSize bounds how many Runs' conversations an Engine
// keeps, as the Writer bounds their folded States.
const conversationCacheSize = 1024

// conversation is what the model gets for a Run without a compaction: the
// Spec's instructions, the thread history and the first n messages of the
// transcript, in the model's form. A Run's transcript only grows, so the
// next turn converts only the messages added since; an Attempt takes it
// from its Engine and gives it back when it ends, so the Run's next
// Attempt (its next turn after a resume) goes on from it.
type conversation struct {
	instructions string
	history      int
	// lastHistory and lastTranscript are the newest messages converted,
	// to check that a State is the one this conversation was built from.
	lastHistory    runlog.Message
	lastTranscript runlog.Message
	n              int
	msgs           []model.Message
}

// newConversation starts the conversation of a Run with these
// instructions and thread history, and no transcript yet.
func newConversation(instructions string, history []runlog.Message) *conversation {
	c := &conversation{instructions: instructions, history: len(history)}
	if instructions != "" {
		c.msgs = append(c.msgs, model.Message{Role: model.RoleSystem, Text: instructions})
	}
	c.msgs = append(c.msgs, modelMessages(history)...)
	if len(history) > 0 {
		c.lastHistory = history[len(history)-1]
	}
	return c
}

// fits reports whether the conversation is a prefix of what the model
// gets for a Run with these instructions, history and transcript.
func (c *conversation) fits(instructions string, history, transcript []runlog.Message) bool {
	switch {
	case c.instructions != instructions, c.history != len(history), c.n > len(transcript):
		return false
	case c.history > 0 && !sameMessage(c.lastHistory, history[c.history-1]):
		return false
	}
	return c.n == 0 || sameMessage(c.lastTranscript, transcript[c.n-1])
}

// extend converts the transcript's messages after the first n and returns
// the whole conversation. The caller may append to what it returns (the
// capacity is clipped), not change its messages.
func (c *conversation) extend(transcript []runlog.Message) []model.Message {
	if len(transcript) > c.n {
		c.msgs = append(c.msgs, modelMessages(transcript[c.n:])...)
		c.n = len(transcript)
		c.lastTranscript = transcript[c.n-1]
	}
	return slices.Clip(c.msgs)
}

// sameMessage reports whether two transcript messages are the same one.
func sameMessage(a, b runlog.Message) bool {
	return a.Role == b.Role && a.Text == b.Text && a.CallID == b.CallID && a.Name == b.Name &&
		a.ProviderCallID == b.ProviderCallID && slices.EqualFunc(a.ToolCalls, b.ToolCalls, func(x, y runlog.ToolCall) bool {
		return x.ID == y.ID && x.Name == y.Name && x.ProviderID == y.ProviderID && string(x.Arguments) == string(y.Arguments)
	})
}

// conversations keeps each Run's conversation between its Attempts, keyed
// by tenant and Run. One is taken out while an Attempt uses it, so two
// Attempts never share one.
type conversations struct {
	mu   sync.Mutex
	once sync.Once
	c    *lru.Cache[*conversation]
}

func (cs *conversations) cache() *lru.Cache[*conversation] {
	cs.once.Do(func() { cs.c = lru.New[*conversation](conversationCacheSize) })
	return cs.c
}

func (cs *conversations) take(tenant, runID string) *conversation {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	k := lru.Key{Tenant: tenant, ID: runID}
	c, ok := cs.cache().Get(k)
	if ok {
		cs.cache().Remove(k)
	}
	return c
}

func (cs *conversations) put(tenant, runID string, c *conversation) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	cs.cache().Add(lru.Key{Tenant: tenant, ID: runID}, c)
}

// messages returns the instructions, thread history and transcript of st
// as the model gets them. Without a compaction they are kept from turn to
// turn, and only the transcript's messages new since are converted; a
// compaction's summary replaces messages in the middle, so it builds them
// whole (the compaction bounds them).
func (a *attempt) messages(st *runlog.State) []model.Message {
	instructions := a.spec.Instructions
	if st.Compaction != nil {
		var msgs []model.Message
		if instructions != "" {
			msgs = append(msgs, model.Message{Role: model.RoleSystem, Text: instructions})
		}
		return append(msgs, summarised(a.history, st)...)
	}
	if a.conv == nil {
		a.conv = a.e.conversations.take(a.lease.Tenant, a.lease.RunID)
	}
	if a.conv == nil || !a.conv.fits(instructions, a.history, st.Transcript) {
		a.conv = newConversation(instructions, a.history)
	}
	return a.conv.extend(st.Transcript)
}

// keepConversation gives the Attempt's conversation back to its Engine
// for the Run's next Attempt.
func (a *attempt) keepConversation() {
	if a.conv != nil && a.state != nil && !a.state.Settled() {
		a.e.conversations.put(a.lease.Tenant, a.lease.RunID, a.conv)
		a.conv = nil
	}
}
