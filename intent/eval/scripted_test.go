package eval_test

import (
	"context"
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rlm-dev/rlm/intent"
	"github.com/rlm-dev/rlm/intent/eval"
	"github.com/rlm-dev/rlm/loop"
	"github.com/rlm-dev/rlm/prompt"
	"github.com/rlm-dev/rlm/providers"
)

// request builds a repair request as the router writes it: one candidate
// unit per intent, the utterance as the user message.
func request(utterance string, intents ...intent.Intent) providers.ChatRequest {
	var b strings.Builder
	for _, in := range intents {
		b.WriteString("### candidate " + in.Name + "\nintent " + in.Name + ": " + in.Description + "\nslots (JSON Schema): " + string(in.Schema()) + "\n\n")
	}
	return providers.ChatRequest{Messages: []providers.Message{{Role: providers.RoleSystem, Content: b.String()},
		{Role: providers.RoleUser, Content: "Utterance: " + utterance}}}
}

var (
	timerIn  = intent.Intent{Name: "timer_start", Description: "Start a countdown timer", Slots: []intent.Slot{{Name: "duration", Type: intent.TypeDuration, Required: true, Description: "duration"}}}
	lightsIn = intent.Intent{Name: "lights_on", Description: "Turn the lights on", Slots: []intent.Slot{{Name: "room", Type: intent.TypeString, Description: "room"}}}
	dimIn    = intent.Intent{Name: "lights_dim", Description: "Dim the lights to a brightness level", Slots: []intent.Slot{{Name: "level", Type: intent.TypeInteger, Required: true, Description: "brightness in percent"}}}
	musicIn  = intent.Intent{Name: "music_play", Description: "Play music", Slots: []intent.Slot{{Name: "what", Type: intent.TypeString, Required: true, Description: "what to play"}}}
)

func answer(t *testing.T, req providers.ChatRequest) map[string]any {
	t.Helper()
	resp, err := eval.ScriptedModel().Stream(context.Background(), req, nil)
	if err != nil {
		t.Fatal(err)
	}
	var out map[string]any
	if err := json.Unmarshal([]byte(resp.Content), &out); err != nil {
		t.Fatalf("not JSON: %q", resp.Content)
	}
	delete(out, "evidence")
	delete(out, "question")
	return out
}

// TestScriptedModelAnswersFromTheRequestAlone: the scripted model picks
// the candidate sharing the most words, fills the slots it can read,
// asks when a required value is missing or candidates tie or the
// utterance holds two requests, and falls back when nothing is shared —
// the same utterance answered differently when the candidates differ.
func TestScriptedModelAnswersFromTheRequestAlone(t *testing.T) {
	for name, tc := range map[string]struct {
		req  providers.ChatRequest
		want map[string]any
	}{
		"overlap and a duration": {request("could you count down 10 minutes for the timer", lightsIn, timerIn),
			map[string]any{"result": "accept", "intent": "timer_start", "args": map[string]any{"duration": 600.0}}},
		"words after a preposition": {request("i would like the lights on in the hall", timerIn, lightsIn),
			map[string]any{"result": "accept", "intent": "lights_on", "args": map[string]any{"room": "hall"}}},
		"a number": {request("lights to twenty brightness", dimIn, timerIn),
			map[string]any{"result": "accept", "intent": "lights_dim", "args": map[string]any{"level": 20.0}}},
		"a required slot missing": {request("start the timer", timerIn, lightsIn),
			map[string]any{"result": "clarify", "intent": "timer_start", "candidates": []any{"timer_start"}}},
		"nothing shared": {request("what is the capital of france", timerIn, lightsIn),
			map[string]any{"result": "fallback_chat"}},
		"a tie": {request("the lights", lightsIn, dimIn),
			map[string]any{"result": "clarify", "candidates": []any{"lights_on", "lights_dim"}}},
		"two requests": {request("timer for 5 minutes and then play some jazz music", timerIn, musicIn),
			map[string]any{"result": "clarify", "candidates": []any{"timer_start", "music_play"}}},
		"other candidates, other answer": {request("i would like the lights on in the hall", timerIn),
			map[string]any{"result": "fallback_chat"}},
	} {
		if diff := cmp.Diff(tc.want, answer(t, tc.req)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", name, diff)
		}
	}
}

// capture is a model that records what the scripted model was asked and
// answered.
type capture struct {
	inner loop.Model
	mu    sync.Mutex
	pairs [][2]string // system text, answer
}

func (c *capture) Model() string { return c.inner.Model() }

func (c *capture) Stream(ctx context.Context, req providers.ChatRequest, on func(providers.StreamDelta) error) (*providers.ChatResponse, error) {
	resp, err := c.inner.Stream(ctx, req, on)
	if err == nil {
		c.mu.Lock()
		c.pairs = append(c.pairs, [2]string{req.Messages[0].Content, resp.Content})
		c.mu.Unlock()
	}
	return resp, err
}

// TestScriptedModelNamesOnlyTheIntentsItIsShown: through the router's
// real repair prompt, over the whole comparison corpus, every intent the
// scripted model names is one of the candidates of that very request.
func TestScriptedModelNamesOnlyTheIntentsItIsShown(t *testing.T) {
	cases, err := eval.LoadCorpus(fullCorpus)
	if err != nil {
		t.Fatal(err)
	}
	m := &capture{inner: eval.ScriptedModel()}
	c, err := prompt.NewCompiler(prompt.CompilerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := intent.New(context.Background(), intent.Options{IntentsDir: homeIntents, Model: m, Compiler: c})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for _, cs := range cases {
		if _, err := r.Route(context.Background(), intent.Turn{ID: "x", Utterance: cs.Utterance}); err != nil {
			t.Fatal(err)
		}
	}
	if len(m.pairs) < 50 {
		t.Fatalf("only %d repairs over the corpus", len(m.pairs))
	}
	shown := regexp.MustCompile(`(?m)^intent ([a-z0-9_]+): `)
	for _, p := range m.pairs {
		var names []string
		for _, g := range shown.FindAllStringSubmatch(p[0], -1) {
			names = append(names, g[1])
		}
		var out struct {
			Intent     string
			Candidates []string
		}
		if err := json.Unmarshal([]byte(p[1]), &out); err != nil {
			t.Fatal(err)
		}
		for _, n := range append(out.Candidates, out.Intent) {
			if n != "" && !slices.Contains(names, n) {
				t.Errorf("the scripted model named %s, shown only %v", n, names)
			}
		}
	}
}
