package loop

import (
	"fmt"
	"sync"

	"github.com/rlm-dev/rlm/providers"
)

// budget counts what a run and its sub-calls use. A sub-call's budget has
// its own, smaller limits and charges its parent too, so the whole run
// never exceeds the top-level Limits.
type budget struct {
	mu     sync.Mutex
	parent *budget
	limits Limits
	usage  Usage
}

// child returns the budget of a sub-call: half of what is left of each
// count, at least one model call.
func (b *budget) child() *budget {
	b.mu.Lock()
	defer b.mu.Unlock()
	l := b.limits
	l.ModelCalls = max(1, (b.limits.ModelCalls-b.usage.ModelCalls)/2)
	l.ToolCalls = max(0, (b.limits.ToolCalls-b.usage.ToolCalls)/2)
	l.Tokens = max(1, (b.limits.Tokens-b.usage.TotalTokens)/2)
	return &budget{parent: b, limits: l}
}

// take charges one model or tool call to b and its ancestors, or reports
// which budget ran out (and charges nothing).
func (b *budget) take(model bool) error {
	for x := b; x != nil; x = x.parent {
		x.mu.Lock()
		var err error
		switch {
		case model && x.usage.ModelCalls >= x.limits.ModelCalls:
			err = fmt.Errorf("model calls: %d of %d used", x.usage.ModelCalls, x.limits.ModelCalls)
		case !model && x.usage.ToolCalls >= x.limits.ToolCalls:
			err = fmt.Errorf("tool calls: %d of %d used", x.usage.ToolCalls, x.limits.ToolCalls)
		case x.usage.TotalTokens >= x.limits.Tokens:
			err = fmt.Errorf("tokens: %d of %d used", x.usage.TotalTokens, x.limits.Tokens)
		}
		x.mu.Unlock()
		if err != nil {
			return err
		}
	}
	for x := b; x != nil; x = x.parent {
		x.mu.Lock()
		if model {
			x.usage.ModelCalls++
		} else {
			x.usage.ToolCalls++
		}
		x.mu.Unlock()
	}
	return nil
}

// TokenUsage is a model call's token counts as the provider reported
// them, each clamped to [0, MaxReportedTokens] so that a broken or hostile
// server can neither give budget back (negative counts) nor overflow the
// sums.
type TokenUsage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
}

// MaxReportedTokens is the most tokens one model call is charged per count.
const MaxReportedTokens = 1 << 40

// tokenUsage clamps u (see TokenUsage). A total below prompt + completion
// is raised to their sum, so the token budget counts at least what the
// parts say.
func tokenUsage(u providers.Usage) TokenUsage {
	clamp := func(n int64) int { return int(min(max(n, 0), MaxReportedTokens)) }
	t := TokenUsage{PromptTokens: clamp(u.PromptTokens), CompletionTokens: clamp(u.CompletionTokens), TotalTokens: clamp(u.TotalTokens)}
	t.TotalTokens = max(t.TotalTokens, t.PromptTokens+t.CompletionTokens)
	return t
}

// spend adds a model call's token usage to b and its ancestors.
func (b *budget) spend(u TokenUsage) {
	for x := b; x != nil; x = x.parent {
		x.mu.Lock()
		x.usage.PromptTokens += u.PromptTokens
		x.usage.CompletionTokens += u.CompletionTokens
		x.usage.TotalTokens += u.TotalTokens
		x.mu.Unlock()
	}
}

// stale counts evidence dropped because its file changed.
func (b *budget) stale(n int) {
	for x := b; x != nil; x = x.parent {
		x.mu.Lock()
		x.usage.StaleEvidence += n
		x.mu.Unlock()
	}
}

func (b *budget) snapshot() Usage {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.usage
}
