package eval

import (
	"bufio"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/rlm-dev/rlm/intent"
)

// Case is one line of a corpus: an utterance and what a careful person
// expects the router to make of it.
type Case struct {
	// File is the name the corpus was read under (ReadCorpus's name), for
	// errors about the case.
	File      string `json:"-"`
	Line      int    // 1-based line in the corpus file
	Category  string // e.g. exact, paraphrased, misspelled, ambiguous, multi_intent, out_of_scope, adversarial
	Utterance string
	// Kinds are the results that are right; several when each is.
	Kinds []intent.Kind
	// Intent is, for an accept, the intent; for a clarify, if set, the
	// intent the question must be about (one of the result's candidates).
	Intent string
	// Args are every argument an accept must have, slot → value as
	// written (durations in seconds); nil: not checked ("*" in the file).
	Args map[string]string
}

// ErrBadCorpus: a corpus line is malformed; the error is a *CorpusError.
var ErrBadCorpus = errors.New("eval: bad corpus")

// CorpusError names the corpus line that cannot be read, and why.
type CorpusError struct {
	File   string
	Line   int
	Reason string
}

func (e *CorpusError) Error() string {
	return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Reason)
}

// Unwrap makes a CorpusError match ErrBadCorpus.
func (e *CorpusError) Unwrap() error { return ErrBadCorpus }

// Limits of a corpus.
const (
	MaxCases     = 10_000
	MaxLineBytes = intent.MaxUtteranceBytes + 1024
)

var (
	categoryRE = regexp.MustCompile(`^[a-z][a-z0-9_]{0,31}$`)
	slotRE     = regexp.MustCompile(`^[a-z][a-z0-9_]{0,63}$`)
)

// LoadCorpus reads the corpus file at path (see ReadCorpus).
func LoadCorpus(path string) ([]Case, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("eval: corpus: %w", err)
	}
	defer f.Close()
	return ReadCorpus(f, path)
}

// ReadCorpus reads a corpus: one case a line, five tab-separated columns
// (category, utterance, kind, intent, args; the format is described in the
// header of testdata/intent/corpus.tsv); lines starting with # and blank
// lines are skipped. name labels errors. A malformed line is a
// *CorpusError; nothing is returned then.
func ReadCorpus(r io.Reader, name string) ([]Case, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), MaxLineBytes) // a first buffer under the cap, so that the cap holds
	var out []Case
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimRight(sc.Text(), "\r")
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		c, reason := parseCase(line)
		if reason != "" {
			return nil, &CorpusError{File: name, Line: n, Reason: reason}
		}
		c.Line, c.File = n, name
		if len(out) == MaxCases {
			return nil, &CorpusError{File: name, Line: n, Reason: fmt.Sprintf("more than %d cases", MaxCases)}
		}
		out = append(out, c)
	}
	if err := sc.Err(); errors.Is(err, bufio.ErrTooLong) {
		return nil, &CorpusError{File: name, Line: n + 1, Reason: fmt.Sprintf("line over %d bytes", MaxLineBytes)}
	} else if err != nil {
		return nil, &CorpusError{File: name, Line: n + 1, Reason: err.Error()}
	}
	if len(out) == 0 {
		return nil, &CorpusError{File: name, Line: n, Reason: "no cases"}
	}
	return out, nil
}

// parseCase reads one line; reason is why it is malformed.
func parseCase(line string) (c Case, reason string) {
	f := strings.Split(line, "\t")
	if len(f) != 5 {
		return c, fmt.Sprintf("%d tab-separated columns, want 5 (category, utterance, kind, intent, args)", len(f))
	}
	c.Category, c.Utterance, c.Intent = f[0], f[1], f[3]
	if !categoryRE.MatchString(c.Category) {
		return c, fmt.Sprintf("category %q: want %s", c.Category, categoryRE)
	}
	if strings.TrimSpace(c.Utterance) == "" || len(c.Utterance) > intent.MaxUtteranceBytes {
		return c, fmt.Sprintf("the utterance must have 1..%d bytes", intent.MaxUtteranceBytes)
	}
	for _, k := range strings.Split(f[2], "|") {
		kind := intent.Kind(k)
		switch kind {
		case intent.Accept, intent.Clarify, intent.Reject, intent.FallbackChat:
		default:
			return c, fmt.Sprintf("kind %q: want accept, clarify, reject or fallback_chat (several separated by |)", k)
		}
		if slices.Contains(c.Kinds, kind) {
			return c, fmt.Sprintf("kind %q given twice", k)
		}
		c.Kinds = append(c.Kinds, kind)
	}
	accept := slices.Contains(c.Kinds, intent.Accept)
	if c.Intent != "" && !slotRE.MatchString(c.Intent) {
		return c, fmt.Sprintf("intent %q is not an intent name", c.Intent)
	}
	if accept && c.Intent == "" {
		return c, "an accept needs its intent"
	}
	if c.Intent != "" && !accept && !slices.Contains(c.Kinds, intent.Clarify) {
		return c, "an intent is expected only with accept or clarify"
	}
	switch a := f[4]; {
	case a == "*":
	case a == "":
		c.Args = map[string]string{}
	case !accept:
		return c, "arguments are expected only with accept"
	default:
		c.Args = map[string]string{}
		for _, kv := range strings.Split(a, ";") {
			k, v, ok := strings.Cut(kv, "=")
			if !ok || !slotRE.MatchString(k) || strings.TrimSpace(v) == "" {
				return c, fmt.Sprintf("argument %q: want slot=value", kv)
			}
			if _, dup := c.Args[k]; dup {
				return c, fmt.Sprintf("argument %s given twice", k)
			}
			c.Args[k] = v
		}
	}
	return c, ""
}

// The halves of a corpus (Case.Half).
const (
	HalfDev     = "dev"      // the development half: every analysis and change is made on it
	HalfHeldOut = "held_out" // the held-out half: measured, never analysed for a change
)

// Half is the half of the corpus c belongs to, by a rule that needs no
// list and no choice: HalfDev when the 64-bit FNV-1a hash of the
// utterance's bytes, as written in the corpus, is even, else HalfHeldOut.
// A line keeps its half wherever it moves in the file; editing the
// utterance may move it.
func (c Case) Half() string {
	h := fnv.New64a()
	h.Write([]byte(c.Utterance))
	if h.Sum64()%2 == 0 {
		return HalfDev
	}
	return HalfHeldOut
}

// Verdict is how a result compares with its case.
type Verdict struct {
	Correct bool
	// FalsePositive: the result is an accept that was not expected — of
	// another intent, or where only a clarify, reject or fallback_chat
	// was right. Executing it would do what the user did not ask.
	FalsePositive bool
	// WrongArgs: the expected intent was accepted with other arguments.
	WrongArgs bool
}

// Judge compares res with what c expects. Strings are compared as words:
// both sides through intent.Tokens, without leading the/a/an/some/my/our/
// your; numbers (durations in seconds) numerically.
func (c Case) Judge(res *intent.Result) Verdict {
	kindOK := slices.Contains(c.Kinds, res.Kind)
	switch res.Kind {
	case intent.Accept:
		if !kindOK || res.Intent != c.Intent {
			return Verdict{FalsePositive: true}
		}
		if c.Args != nil && !argsEqual(c.Args, res.Args) {
			return Verdict{WrongArgs: true}
		}
		return Verdict{Correct: true}
	case intent.Clarify:
		if kindOK && c.Intent != "" && res.Intent != c.Intent && !slices.Contains(res.Candidates, c.Intent) {
			return Verdict{}
		}
	}
	return Verdict{Correct: kindOK}
}

func argsEqual(want map[string]string, got map[string]any) bool {
	if len(want) != len(got) {
		return false
	}
	for k, w := range want {
		g, ok := got[k]
		if !ok {
			return false
		}
		switch v := g.(type) {
		case int:
			f, err := strconv.ParseFloat(w, 64)
			if err != nil || f != float64(v) {
				return false
			}
		case float64:
			f, err := strconv.ParseFloat(w, 64)
			if err != nil || f != v {
				return false
			}
		case bool:
			if strconv.FormatBool(v) != strings.ToLower(w) {
				return false
			}
		case string:
			if words(w) != words(v) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// words is s as compared: its tokens without leading determiners.
func words(s string) string {
	ts := intent.Tokens(s)
	for len(ts) > 1 && slices.Contains([]string{"the", "a", "an", "some", "my", "our", "your"}, ts[0]) {
		ts = ts[1:]
	}
	return strings.Join(ts, " ")
}

// String writes what c expects, e.g. "accept timer_start duration=300".
func (c Case) String() string {
	var b strings.Builder
	for i, k := range c.Kinds {
		if i > 0 {
			b.WriteByte('|')
		}
		b.WriteString(string(k))
	}
	if c.Intent != "" {
		b.WriteString(" " + c.Intent)
	}
	keys := make([]string, 0, len(c.Args))
	for k := range c.Args {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		b.WriteString(" " + k + "=" + c.Args[k])
	}
	return b.String()
}
