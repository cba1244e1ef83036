package providers

import (
	"encoding/json"
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
//
// The texts a caller decodes as JSON — tool call arguments, structured
// output, any JSON a model writes in its content — are redacted in their
// decoded form too (redactEscaped): a key spelled with JSON escapes
// ("\u0073k-…") is no match for the plain text, but it is the key again
// once the arguments are decoded, validated and traced.
func redactResponse(r *ChatResponse, secret string) {
	r.ID, r.Model = redact(r.ID, secret), redact(r.Model, secret)
	r.Content, r.Refusal = redactEscaped(redact(r.Content, secret), secret), redactEscaped(redact(r.Refusal, secret), secret)
	for i := range r.ToolCalls {
		tc := &r.ToolCalls[i]
		tc.ID, tc.Name, tc.Arguments = redact(tc.ID, secret), redact(tc.Name, secret), redactEscaped(redact(tc.Arguments, secret), secret)
	}
}

// redactEscaped replaces each JSON string literal of s ("…", RFC 8259
// §7) that has an escape and whose decoded value holds secret with the
// literal of that value with the secret replaced by [REDACTED]; the rest
// of s is kept byte for byte. A literal without an escape decodes to its
// own bytes, which redact has already seen.
func redactEscaped(s, secret string) string {
	if secret == "" || !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	last := 0
	for i := 0; i < len(s); i++ {
		if s[i] != '"' {
			continue
		}
		j, escaped := i+1, false
		for j < len(s) && s[j] != '"' {
			if s[j] == '\\' {
				escaped = true
				j++
			}
			j++
		}
		if j >= len(s) {
			break // an unterminated literal: nothing decodes it
		}
		if escaped {
			var v string
			if json.Unmarshal([]byte(s[i:j+1]), &v) == nil && strings.Contains(v, secret) {
				lit, _ := json.Marshal(strings.ReplaceAll(v, secret, redacted)) // a string always encodes
				b.WriteString(s[last:i])
				b.Write(lit)
				last = j + 1
			}
		}
		i = j
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

func (d StreamDelta) empty() bool { return d.Content == "" && d.Refusal == "" && len(d.ToolCalls) == 0 }
