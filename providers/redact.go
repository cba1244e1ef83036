package providers

import (
	"slices"
	"strings"
)

// pieceRedactor removes a secret from a text that arrives in pieces (the
// deltas of a streamed answer), including a secret split across pieces:
// push holds back the longest tail of what it has seen that could begin
// the secret, and releases it with the next piece or with flush.
type pieceRedactor struct {
	secret string
	held   string
}

// push returns the part of held+s that can be released, with every
// complete occurrence of the secret replaced by [REDACTED].
func (r *pieceRedactor) push(s string) string {
	if r.secret == "" {
		return s
	}
	t := strings.ReplaceAll(r.held+s, r.secret, redacted)
	k := possibleSecretStart(t, r.secret)
	r.held = t[len(t)-k:]
	return t[:len(t)-k]
}

// flush returns what push held back (a proper prefix of the secret,
// which the stream ended without completing).
func (r *pieceRedactor) flush() string {
	h := r.held
	r.held = ""
	return h
}

// possibleSecretStart is the length of the longest tail of t that is a
// proper prefix of secret. The secret begins at a rune boundary of t, so
// t without that tail is still whole runes.
func possibleSecretStart(t, secret string) int {
	for k := min(len(secret)-1, len(t)); k > 0; k-- {
		if strings.HasSuffix(t, secret[:k]) {
			return k
		}
	}
	return 0
}

// streamRedactor keeps one pieceRedactor per streamed channel: the
// content, the refusal and each tool call's arguments.
type streamRedactor struct {
	secret           string
	content, refusal pieceRedactor
	args             map[int]*pieceRedactor
}

func newStreamRedactor(secret string) *streamRedactor {
	return &streamRedactor{secret: secret, content: pieceRedactor{secret: secret}, refusal: pieceRedactor{secret: secret},
		args: map[int]*pieceRedactor{}}
}

// delta redacts one delta. IDs and names arrive whole and are redacted
// whole.
func (s *streamRedactor) delta(d StreamDelta) StreamDelta {
	d.Content = s.content.push(d.Content)
	d.Refusal = s.refusal.push(d.Refusal)
	for i := range d.ToolCalls {
		tc := &d.ToolCalls[i]
		tc.ID, tc.Name = redact(tc.ID, s.secret), redact(tc.Name, s.secret)
		tc.Arguments = s.arg(tc.Index).push(tc.Arguments)
	}
	return d
}

func (s *streamRedactor) arg(index int) *pieceRedactor {
	r, ok := s.args[index]
	if !ok {
		r = &pieceRedactor{secret: s.secret}
		s.args[index] = r
	}
	return r
}

// flush is the delta of everything held back, in tool-call index order.
func (s *streamRedactor) flush() StreamDelta {
	d := StreamDelta{Content: s.content.flush(), Refusal: s.refusal.flush()}
	idx := make([]int, 0, len(s.args))
	for i := range s.args {
		idx = append(idx, i)
	}
	slices.Sort(idx)
	for _, i := range idx {
		if a := s.args[i].flush(); a != "" {
			d.ToolCalls = append(d.ToolCalls, ToolCallDelta{Index: i, Arguments: a})
		}
	}
	return d
}

// redactResponse removes the secret from every text of an answer: what
// the server sends is data that may echo the request's Authorization
// header, and an answer is printed, traced and sent back to the server.
func redactResponse(r *ChatResponse, secret string) {
	r.ID, r.Model = redact(r.ID, secret), redact(r.Model, secret)
	r.Content, r.Refusal = redact(r.Content, secret), redact(r.Refusal, secret)
	for i := range r.ToolCalls {
		tc := &r.ToolCalls[i]
		tc.ID, tc.Name, tc.Arguments = redact(tc.ID, secret), redact(tc.Name, secret), redact(tc.Arguments, secret)
	}
}

func (d StreamDelta) empty() bool { return d.Content == "" && d.Refusal == "" && len(d.ToolCalls) == 0 }
