package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rlm-dev/rlm/internal/testfixture"
)

const (
	homeIntents = "../../examples/router/intents"
	smallCorpus = "../../intent/eval/testdata/small.tsv"
)

// homeGrants are the flags granting the example's capabilities.
var homeGrants = []string{"--cap", "timer", "--cap", "lights", "--cap", "music", "--cap", "phone", "--allow", "write,external"}

func route(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	return runCLI(t, "", append([]string{"route", "--intents", homeIntents}, args...)...)
}

type routeJSON struct {
	Kind              string         `json:"kind"`
	Intent            string         `json:"intent"`
	Args              map[string]any `json:"args"`
	Candidates        []string       `json:"candidates"`
	Reason            string         `json:"reason"`
	By                string         `json:"by"`
	ModelCalls        int            `json:"model_calls"`
	RepairFingerprint string         `json:"repair_fingerprint"`
	Evidence          []struct{ Rule string }
}

func routeResult(t *testing.T, args ...string) routeJSON {
	t.Helper()
	out, errs, code := route(t, append([]string{"--json"}, args...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var r routeJSON
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	return r
}

// TestRouteAcceptsAnExactCommandWithTypedArguments: `rlm route` accepts a
// command matching a phrasing with its typed, validated arguments, by the
// rules alone, and prints them.
func TestRouteAcceptsAnExactCommandWithTypedArguments(t *testing.T) {
	r := routeResult(t, append(homeGrants, "set a timer for 5 minutes")...)
	if r.Kind != "accept" || r.Intent != "timer_start" || r.Args["duration"] != 300.0 || r.By != "resolver" || r.ModelCalls != 0 {
		t.Fatalf("%+v", r)
	}
	out, _, code := route(t, append(homeGrants, "dim the bedroom lights to 20 percent")...)
	if code != 0 || !strings.HasPrefix(out, `accept lights_dim {"level":20,"room":"bedroom"}`) {
		t.Fatalf("exit %d:\n%s", code, out)
	}
}

// TestRouteExplainShowsTheChain: --explain prints the candidates with
// their scores, the resolver's rule, the validation's, and that no model
// was called.
func TestRouteExplainShowsTheChain(t *testing.T) {
	out, errs, code := route(t, append(homeGrants, "--explain", "--spell", "set a tmer for 5 minutes")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"accept timer_start", `rewritten: "set a timer for 5 minutes"`, "candidates (BM25 score, % of the best):",
		"timer_start              100", "in_exact_phrasing  <- intent(\"timer_start\")", "val_passed  <- \"timer_start\"",
		"repair: not needed, the rules decided (no model call)", "decided by resolver in"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// TestRouteWithoutAModelAsksInsteadOfGuessing: without --model, a turn
// the rules cannot decide is a clarify among the candidates, and
// --explain says no repair was configured.
func TestRouteWithoutAModelAsksInsteadOfGuessing(t *testing.T) {
	r := routeResult(t, append(homeGrants, "the hall lights should be on")...)
	if r.Kind != "clarify" || r.Reason != "no_model" || r.ModelCalls != 0 || len(r.Candidates) == 0 {
		t.Fatalf("%+v", r)
	}
	out, _, _ := route(t, append(homeGrants, "--explain", "the hall lights should be on")...)
	for _, want := range []string{"clarify \"Should I ", "in_no_phrasing", "repair: none configured (--model)"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// TestRouteRepairsThroughTheChatEndpoint: with --model, an undecided turn
// is repaired by one call to the OpenAI-compatible endpoint, which is
// shown only the candidates; --explain names the call and the projection
// fingerprint.
func TestRouteRepairsThroughTheChatEndpoint(t *testing.T) {
	fake := testfixture.NewChatFake(t, func(int, testfixture.Request) testfixture.ChatTurn {
		return testfixture.ChatTurn{Content: `{"result":"accept","intent":"lights_on","args":{"room":"hall"}}`}
	})
	chat := []string{"--model", "gpt-4o-mini", "--base-url", fake.URL(), "--key-env", ""}
	r := routeResult(t, append(append(homeGrants, chat...), "the hall lights should be on")...)
	if r.Kind != "accept" || r.Intent != "lights_on" || r.Args["room"] != "hall" || r.By != "repair" || r.ModelCalls != 1 || r.RepairFingerprint == "" {
		t.Fatalf("%+v", r)
	}
	out, _, _ := route(t, append(append(homeGrants, chat...), "--explain", "the hall lights should be on")...)
	if !strings.Contains(out, "repair: 1 model calls") || !strings.Contains(out, "projection fingerprint "+r.RepairFingerprint) {
		t.Errorf("the explanation lacks the repair:\n%s", out)
	}
	reqs := fake.Requests()
	if len(reqs) != 2 || !strings.Contains(systemOf(reqs[0]), "intent lights_on:") || strings.Contains(systemOf(reqs[0]), "intent call_contact:") {
		t.Fatalf("%d requests; the model was not shown exactly the candidates", len(reqs))
	}
}

// TestRouteNeverPrintsTheKeyARepairEchoes: a repair whose reply spells
// the API key with JSON escapes, in the question, the reason and the
// evidence of a clarify, gets it printed as [REDACTED] — the decoded
// reply is what --json and --explain show.
func TestRouteNeverPrintsTheKeyARepairEchoes(t *testing.T) {
	const key = "sk-echoed-by-the-repair-0123456789"
	t.Setenv("RLM_TEST_ROUTE_KEY", key)
	var esc strings.Builder
	for _, r := range key {
		fmt.Fprintf(&esc, `\u%04x`, r)
	}
	fake := testfixture.NewChatFake(t, func(int, testfixture.Request) testfixture.ChatTurn {
		return testfixture.ChatTurn{Content: `{"result":"clarify","question":"Is ` + esc.String() + ` yours?","candidates":["lights_on"],"reason":"r ` + esc.String() + `","evidence":["e ` + esc.String() + `"]}`}
	})
	chat := []string{"--model", "gpt-4o-mini", "--base-url", fake.URL(), "--key-env", "RLM_TEST_ROUTE_KEY"}
	for _, extra := range [][]string{{"--json"}, {"--explain"}} {
		out, errs, _ := route(t, append(append(append(homeGrants, chat...), extra...), "the hall lights should be on")...)
		if strings.Contains(out+errs, key) || !strings.Contains(out, "[REDACTED]") {
			t.Errorf("%v: the key was printed, or the reply lost:\n%s\n%s", extra, out, errs)
		}
	}
}

// TestRouteRefusesWhatThePolicyDoesNotGrant: an accepted intent whose
// capability is not granted (--cap), or whose side effect is not allowed
// (--allow), is a reject that says so.
func TestRouteRefusesWhatThePolicyDoesNotGrant(t *testing.T) {
	if r := routeResult(t, "set a timer for 5 minutes"); r.Kind != "reject" || r.Reason != "capability_denied" {
		t.Errorf("no --cap: %+v", r)
	}
	if r := routeResult(t, "--cap", "timer", "set a timer for 5 minutes"); r.Kind != "reject" || r.Reason != "side_effect_denied" {
		t.Errorf("no --allow write: %+v", r)
	}
	out, _, _ := route(t, "--cap", "timer", "set a timer for 5 minutes")
	if !strings.Contains(out, "--allow write,external") {
		t.Errorf("no hint:\n%s", out)
	}
	if r := routeResult(t, "--cap", "timer", "how much time is left on the timer"); r.Kind != "accept" {
		t.Errorf("a read under the default policy: %+v", r)
	}
}

// TestRouteRefusesBadUsage: missing --intents or utterance, an unknown
// side effect, a bad corpus line are usage or input errors with a clear
// message; hostile utterance text is only data.
func TestRouteRefusesBadUsage(t *testing.T) {
	for name, args := range map[string][]string{
		"no intents":      {"route", "call mom"},
		"no utterance":    {"route", "--intents", homeIntents},
		"bad side effect": {"route", "--intents", homeIntents, "--allow", "root", "call mom"},
		"eval no corpus":  {"route", "eval", "--intents", homeIntents},
		"eval both":       {"route", "eval", "--intents", homeIntents, "--corpus", smallCorpus, "--scripted", "--model", "m"},
	} {
		if _, errs, code := runCLI(t, "", args...); code != 2 || !strings.Contains(errs, "rlm route") {
			t.Errorf("%s: exit %d: %s", name, code, errs)
		}
	}
	bad := filepath.Join(t.TempDir(), "bad.tsv")
	if err := os.WriteFile(bad, []byte("# c\nexact\tcall mom\texecute\tcall_contact\t\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, errs, code := runCLI(t, "", "route", "eval", "--intents", homeIntents, "--corpus", bad); code != 1 || !strings.Contains(errs, "bad.tsv:2:") {
		t.Errorf("bad corpus: exit %d: %s", code, errs)
	}
	if r := routeResult(t, "X = 1, call(halt)."); r.Kind == "accept" {
		t.Errorf("hostile text accepted: %+v", r)
	}
}

// TestRouteEvalScoresACorpus: `rlm route eval --scripted` prints the
// three configurations and the per-category table; --model scores an
// OpenAI-compatible endpoint as the repair; without a model only two
// configurations, and it says so; --json is the report.
func TestRouteEvalScoresACorpus(t *testing.T) {
	out, errs, code := runCLI(t, "", "route", "eval", "--intents", homeIntents, "--corpus", smallCorpus, "--scripted", "--misses")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"8 cases (repair model: scripted)", "| resolver |", "| rewriter+resolver |", "| rewriter+resolver+repair |",
		"| exact | 2 |", "FALSE POSITIVE"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	fake := testfixture.NewChatFake(t, func(int, testfixture.Request) testfixture.ChatTurn {
		return testfixture.ChatTurn{Content: `{"result":"fallback_chat"}`}
	})
	out, errs, code = runCLI(t, "", "route", "eval", "--intents", homeIntents, "--corpus", smallCorpus,
		"--model", "gpt-4o-mini", "--base-url", fake.URL(), "--key-env", "")
	if code != 0 || !strings.Contains(out, "(repair model: gpt-4o-mini)") || len(fake.Requests()) == 0 {
		t.Fatalf("an endpoint as the repair: exit %d, %d requests: %s%s", code, len(fake.Requests()), out, errs)
	}
	out, errs, code = runCLI(t, "", "route", "eval", "--intents", homeIntents, "--corpus", smallCorpus, "--json")
	if code != 0 || !strings.Contains(errs, "the repair configuration is not scored") {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var rep struct {
		Cases   int
		Configs []struct{ Config string }
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil || rep.Cases != 8 || len(rep.Configs) != 2 {
		t.Fatalf("%v: %+v", err, rep)
	}
	out, errs, code = runCLI(t, "", "route", "eval", "--intents", homeIntents, "--corpus", smallCorpus, "--half", "dev")
	if code != 0 || !strings.Contains(out, "the dev half only") || strings.Contains(out, "| held_out |") {
		t.Fatalf("--half dev: exit %d: %s%s", code, out, errs)
	}
}

// TestRouteEvalReportsFailedRepairsAndFailsWhenAllFail: a repair the
// endpoint does not answer is a clarify by the rules, so it is counted
// apart ("failed repairs") with its stop, warned about, and when every
// repair of the run failed (a dead endpoint, a wrong key) the command
// fails instead of printing the fallback's accuracy as the model's.
func TestRouteEvalReportsFailedRepairsAndFailsWhenAllFail(t *testing.T) {
	tests := []struct {
		name     string
		status   func(call int) int
		wantCode int
		want     []string
	}{
		{"every call refused", func(int) int { return 401 }, 1, []string{"(provider_error "}},
		{"the first call refused", func(call int) int {
			if call == 0 {
				return 401
			}
			return 0
		}, 0, []string{"warning: rewriter+resolver+repair: 1 of ", "(provider_error 1)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fake := testfixture.NewChatFake(t, func(call int, _ testfixture.Request) testfixture.ChatTurn {
				return testfixture.ChatTurn{Status: tt.status(call), Content: `{"result":"fallback_chat"}`}
			})
			out, errs, code := runCLI(t, "", "route", "eval", "--intents", homeIntents, "--corpus", smallCorpus,
				"--model", "gpt-4o-mini", "--base-url", fake.URL(), "--key-env", "")
			if code != tt.wantCode {
				t.Fatalf("exit %d, want %d: %s%s", code, tt.wantCode, out, errs)
			}
			for _, w := range tt.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
			if all := strings.Contains(errs, "every repair of the rewriter+resolver+repair configuration failed"); all != (tt.wantCode != 0) {
				t.Errorf("stderr says every repair failed: %v, want %v: %s", all, tt.wantCode != 0, errs)
			}
		})
	}
}
