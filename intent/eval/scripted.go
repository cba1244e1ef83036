package eval

import (
	"context"
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/rlm-dev/rlm/intent"
	"github.com/rlm-dev/rlm/loop"
	"github.com/rlm-dev/rlm/providers"
)

// ScriptedModel is a deterministic stand-in for a chat model, to measure
// the repair without an endpoint. It is not an oracle: it never sees a
// corpus, only the request the router's repair sends, and it answers from
// that alone, the way a plain word-matching program would:
//
//   - it reads the candidates from the system message (the repair's
//     "intent NAME: DESCRIPTION" and "slots (JSON Schema): {...}" lines)
//     and the utterance from the user message ("Utterance: ...");
//   - it scores each candidate by the utterance's content words found
//     among the candidate's words (name, description, slot descriptions,
//     enum values), after a tiny synonym table of its own (scriptedSynonyms)
//     and a plural "s" stripped;
//   - no candidate shares a word: fallback_chat; several share the best
//     score: clarify among them; the utterance splits at "and"/"then"/","
//     into parts whose best candidates differ: clarify among all those;
//   - else it fills the best candidate's slots from the words: a duration
//     (a number and a unit, parsed by intent.ParseSlot), a number, an enum
//     value, and for a string slot the words after the last preposition
//     (in, to, for, about, at, on, of, called, named) or after the last
//     word it matched; a required slot it cannot fill makes a clarify.
//
// It reports no token usage. Safe for concurrent use.
func ScriptedModel() loop.Model { return scripted{} }

type scripted struct{}

func (scripted) Model() string { return "scripted" }

func (scripted) Stream(ctx context.Context, req providers.ChatRequest, onDelta func(providers.StreamDelta) error) (*providers.ChatResponse, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var system, user string
	for _, m := range req.Messages {
		switch m.Role {
		case providers.RoleSystem:
			system += m.Content + "\n"
		case providers.RoleUser:
			user = m.Content
		}
	}
	b, err := json.Marshal(scriptedAnswer(parseCandidates(system), strings.TrimPrefix(user, "Utterance: ")))
	if err != nil {
		return nil, err
	}
	if onDelta != nil {
		if err := onDelta(providers.StreamDelta{Content: string(b)}); err != nil {
			return nil, err
		}
	}
	return &providers.ChatResponse{Provider: "scripted", Model: "scripted", Content: string(b), FinishReason: "stop"}, nil
}

// scriptedSynonyms map a word to one the intents use: one or two common
// words for each concept of a home assistant, written once.
var scriptedSynonyms = map[string]string{
	"countdown": "timer", "wake": "alarm", "lamp": "light", "lamps": "light",
	"dimmer": "dim", "heating": "temperature", "warmer": "temperature", "cooler": "temperature",
	"song": "music", "track": "music", "tune": "music", "hold": "pause", "next": "skip",
	"louder": "volume", "quieter": "volume", "jot": "note", "remember": "note",
	"buy": "shopping", "groceries": "shopping", "reminder": "remind",
	"forecast": "weather", "rain": "weather", "meeting": "calendar", "appointment": "calendar",
	"ring": "phone", "dial": "phone", "call": "phone", "google": "search", "internet": "web",
}

var (
	scriptedStop = words2set("a an the to of in on at for and or but is are be it its this that my me you your i we our " +
		"please can could would will what how some any do does with by from just now so too here there want like need " +
		"should hey ok okay let i'd i'm it's what's")
	prepositions = []string{"in", "to", "for", "about", "at", "on", "of", "called", "named"}
	conjunctions = words2set("and then also plus")
	numberish    = words2set("zero one two three four five six seven eight nine ten eleven twelve fifteen twenty thirty forty fifty sixty seventy eighty ninety hundred")
	intentLine   = regexp.MustCompile(`^intent ([a-z][a-z0-9_]*): (.*)$`)
)

func words2set(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

// concept is a word as the scripted model compares it.
func concept(w string) string {
	if s, ok := scriptedSynonyms[w]; ok {
		w = s
	}
	if len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") {
		w = w[:len(w)-1]
	}
	return w
}

type scriptedSlot struct {
	name, typ, description string
	enum                   []string
	required               bool
}

type scriptedCand struct {
	name  string
	slots []scriptedSlot
	words map[string]bool // concepts
}

// parseCandidates reads the repair's candidate units.
func parseCandidates(system string) []scriptedCand {
	var out []scriptedCand
	for _, line := range strings.Split(system, "\n") {
		if m := intentLine.FindStringSubmatch(line); m != nil {
			c := scriptedCand{name: m[1], words: map[string]bool{}}
			c.add(strings.ReplaceAll(m[1], "_", " ") + " " + m[2])
			out = append(out, c)
			continue
		}
		rest, ok := strings.CutPrefix(line, "slots (JSON Schema): ")
		if !ok || len(out) == 0 {
			continue
		}
		var schema struct {
			Properties map[string]struct {
				Type        string   `json:"type"`
				Description string   `json:"description"`
				Enum        []string `json:"enum"`
			} `json:"properties"`
			Required []string `json:"required"`
		}
		if json.Unmarshal([]byte(rest), &schema) != nil {
			continue
		}
		c := &out[len(out)-1]
		names := make([]string, 0, len(schema.Properties))
		for n := range schema.Properties {
			names = append(names, n)
		}
		slices.Sort(names)
		for _, n := range names {
			p := schema.Properties[n]
			s := scriptedSlot{name: n, typ: p.Type, description: p.Description, enum: p.Enum, required: slices.Contains(schema.Required, n)}
			if p.Type == "integer" && strings.HasSuffix(p.Description, "(seconds)") {
				s.typ = "duration"
			}
			if len(p.Enum) > 0 {
				s.typ = "enum"
			}
			c.slots = append(c.slots, s)
			c.add(strings.TrimSuffix(p.Description, "(seconds)") + " " + strings.Join(p.Enum, " "))
		}
	}
	return out
}

func (c *scriptedCand) add(text string) {
	for _, w := range intent.Tokens(text) {
		if !scriptedStop[w] {
			c.words[concept(w)] = true
		}
	}
}

// score is how many distinct content words of toks c has, and which.
func (c scriptedCand) score(toks []string) (int, []string) {
	seen := map[string]bool{}
	var hit []string
	for _, w := range toks {
		k := concept(w)
		if !scriptedStop[w] && c.words[k] && !seen[k] {
			seen[k] = true
			hit = append(hit, w)
		}
	}
	return len(hit), hit
}

// best returns the candidates with the highest score over toks (none if
// it is 0), and the words matched.
func best(cands []scriptedCand, toks []string) ([]scriptedCand, []string) {
	top, out, hit := 0, []scriptedCand(nil), []string(nil)
	for _, c := range cands {
		n, h := c.score(toks)
		switch {
		case n > top:
			top, out, hit = n, []scriptedCand{c}, h
		case n == top && n > 0:
			out = append(out, c)
		}
	}
	return out, hit
}

type scriptedReply struct {
	Result     string         `json:"result"`
	Intent     string         `json:"intent,omitempty"`
	Args       map[string]any `json:"args,omitempty"`
	Question   string         `json:"question,omitempty"`
	Candidates []string       `json:"candidates,omitempty"`
	Evidence   []string       `json:"evidence,omitempty"`
}

func names(cs []scriptedCand) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.name
	}
	return out
}

func scriptedAnswer(cands []scriptedCand, utterance string) scriptedReply {
	toks := intent.Tokens(utterance)
	top, hit := best(cands, toks)
	switch {
	case len(top) == 0:
		return scriptedReply{Result: "fallback_chat", Evidence: []string{"no candidate shares a word with the utterance"}}
	case len(top) > 1:
		ns := names(top)
		return scriptedReply{Result: "clarify", Candidates: ns, Question: "Which do you mean: " + strings.Join(ns, " or ") + "?",
			Evidence: []string{"tied on: " + strings.Join(hit, ", ")}}
	}
	if parts := partsBest(cands, utterance); len(parts) > 1 {
		return scriptedReply{Result: "clarify", Candidates: parts, Question: "That is several requests (" + strings.Join(parts, ", ") + "); which first?",
			Evidence: []string{"several requests"}}
	}
	c := top[0]
	args, missing := fill(c, toks)
	if missing != nil {
		return scriptedReply{Result: "clarify", Intent: c.name, Candidates: []string{c.name}, Question: "What " + missing.description + "?",
			Evidence: []string{"matched: " + strings.Join(hit, ", "), "no value for " + missing.name}}
	}
	return scriptedReply{Result: "accept", Intent: c.name, Args: args, Evidence: []string{"matched: " + strings.Join(hit, ", ")}}
}

// partsBest splits the utterance at conjunctions (and commas) and, if
// two parts have different best candidates, returns the best candidates
// of all parts.
func partsBest(cands []scriptedCand, utterance string) []string {
	var parts [][]string
	cur := []string{}
	for _, f := range strings.Fields(utterance) {
		ws := intent.Tokens(f)
		if len(ws) == 1 && conjunctions[ws[0]] {
			parts, cur = append(parts, cur), []string{}
			continue
		}
		cur = append(cur, ws...)
		if strings.HasSuffix(f, ",") || strings.HasSuffix(f, ";") {
			parts, cur = append(parts, cur), []string{}
		}
	}
	parts = append(parts, cur)
	var out, first []string
	differ := false
	for _, p := range parts {
		top, _ := best(cands, p)
		if len(top) == 0 {
			continue
		}
		ns := names(top)
		if first == nil {
			first = ns
		} else if !slices.Equal(first, ns) {
			differ = true
		}
		for _, n := range ns {
			if !slices.Contains(out, n) {
				out = append(out, n)
			}
		}
	}
	if !differ {
		return nil
	}
	return out
}

// fill extracts c's slot values from toks; missing is a required slot it
// could not fill.
func fill(c scriptedCand, toks []string) (map[string]any, *scriptedSlot) {
	used := make([]bool, len(toks))
	args := map[string]any{}
	take := func(i, j int) {
		for k := i; k < j; k++ {
			used[k] = true
		}
	}
	// Typed values first, so that free words are what they leave.
	order := func(t string) int {
		return map[string]int{"duration": 0, "enum": 1, "integer": 2, "number": 2, "string": 3}[t]
	}
	slots := slices.Clone(c.slots)
	slices.SortStableFunc(slots, func(a, b scriptedSlot) int { return order(a.typ) - order(b.typ) })
	for i := range slots {
		s := &slots[i]
		var v any
		switch s.typ {
		case "duration":
			v = findDuration(toks, used, take)
		case "enum":
			for k, w := range toks {
				if !used[k] && slices.Contains(s.enum, w) {
					v = w
					take(k, k+1)
					break
				}
			}
		case "integer", "number":
			for k, w := range toks {
				if used[k] || !(numberish[w] || w != "" && unicode.IsDigit(rune(w[0]))) {
					continue
				}
				typ := intent.TypeInteger
				if s.typ == "number" {
					typ = intent.TypeNumber
				}
				if n, err := intent.ParseSlot(intent.Slot{Name: s.name, Type: typ}, []string{w}); err == nil {
					v = n
					take(k, k+1)
					break
				}
			}
		case "string":
			if ws := stringWords(c, toks, used); len(ws) > 0 {
				v = strings.Join(ws, " ")
			}
		}
		if v == nil {
			if s.required {
				return nil, s
			}
			continue
		}
		args[s.name] = v
	}
	return args, nil
}

// findDuration takes the first run of words intent.ParseSlot reads as a
// duration (the longest at its start).
func findDuration(toks []string, used []bool, take func(i, j int)) any {
	slot := intent.Slot{Name: "duration", Type: intent.TypeDuration}
	for i := range toks {
		for j := min(len(toks), i+5); j > i; j-- {
			if slices.Contains(used[i:j], true) {
				continue
			}
			if v, err := intent.ParseSlot(slot, toks[i:j]); err == nil {
				take(i, j)
				return v
			}
		}
	}
	return nil
}

// stringWords are the words after the last preposition that leads to
// free words (not the candidate's own), else after the last word of the
// candidate's; up to the next used word, without stop words at the ends.
func stringWords(c scriptedCand, toks []string, used []bool) []string {
	span := func(from int) []string {
		var ws []string
		for k := from; k < len(toks) && !used[k]; k++ {
			ws = append(ws, toks[k])
		}
		for len(ws) > 0 && (scriptedStop[ws[0]] || slices.Contains(prepositions, ws[0])) {
			ws = ws[1:]
		}
		for len(ws) > 0 && (scriptedStop[ws[len(ws)-1]] || slices.Contains(prepositions, ws[len(ws)-1])) {
			ws = ws[:len(ws)-1]
		}
		for _, w := range ws {
			if !c.words[concept(w)] {
				return ws
			}
		}
		return nil
	}
	for k := len(toks) - 1; k >= 0; k-- {
		if !used[k] && slices.Contains(prepositions, toks[k]) {
			if ws := span(k + 1); len(ws) > 0 {
				return ws
			}
		}
	}
	for k := len(toks) - 1; k >= 0; k-- {
		if !used[k] && !scriptedStop[toks[k]] && c.words[concept(toks[k])] {
			return span(k + 1)
		}
	}
	return nil
}
