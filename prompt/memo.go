package prompt

import (
	"sync"

	"github.com/rlm-dev/rlm/engine"
)

// DefaultMemoSize is the number of rule answers a Compiler keeps when
// CompilerOptions.MemoSize is 0.
const DefaultMemoSize = 256

// answerMemo keeps the rules' answers to compile_units/5 by the exact
// encoding of the goal's input arguments (engine.AppendGroundKey): the
// prompt rules are pure -- the sandbox has no assert, retract, clock or
// random number, and the rule base is fixed when the Compiler is built --
// so the same arguments always get the same answer. A changed input (a
// unit's features, the input term, the candidate order) is a different key:
// nothing is ever invalidated by hand. When full it forgets the oldest
// answer. Safe for concurrent use.
type answerMemo struct {
	mu    sync.Mutex
	max   int
	byKey map[string]any
	order []string // keys, oldest first
}

func newAnswerMemo(max int) *answerMemo {
	return &answerMemo{max: max, byKey: make(map[string]any, max)}
}

// key is the encoding of args, or false when one is not ground (then the
// goal is not memoised).
func memoKey(args ...engine.Term) (string, bool) {
	b := make([]byte, 0, 4096)
	for _, a := range args {
		var ok bool
		if b, ok = engine.AppendGroundKey(b, a); !ok {
			return "", false
		}
	}
	return string(b), true
}

func (m *answerMemo) get(key string) (any, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	v, ok := m.byKey[key]
	return v, ok
}

func (m *answerMemo) put(key string, v any) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.byKey[key]; ok {
		return
	}
	if len(m.order) >= m.max {
		delete(m.byKey, m.order[0])
		m.order = m.order[1:]
	}
	m.byKey[key] = v
	m.order = append(m.order, key)
}

// len is the number of answers kept.
func (m *answerMemo) len() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.byKey)
}
