package tms_test

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math/rand"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/rlm-dev/rlm/tms"
)

var ctx = context.Background()

// world is a fake snapshot: file contents, hashed, with generations that
// bump whenever a file's hash changes (as the store's do).
type world struct {
	text map[string]string
	gen  map[string]int64
}

func newWorld(files map[string]string) *world {
	w := &world{text: map[string]string{}, gen: map[string]int64{}}
	for p, t := range files {
		w.set(p, t)
	}
	return w
}

func hashOf(t string) string { return fmt.Sprintf("h%x", len(t)) + "-" + t }

func (w *world) set(p, t string) {
	if old, ok := w.text[p]; ok && old == t {
		return
	}
	w.text[p] = t
	w.gen[p]++
}

func (w *world) env() tms.Environment {
	files := map[string]tms.FileVersion{}
	for p, t := range w.text {
		files[p] = tms.FileVersion{Hash: hashOf(t), Generation: w.gen[p]}
	}
	text := maps.Clone(w.text)
	return tms.Environment{Files: files, Embedder: "m/8", RulesVersion: "r1",
		Read: func(_ context.Context, p string) ([]byte, error) {
			t, ok := text[p]
			if !ok {
				return nil, errors.New("gone")
			}
			return []byte(t), nil
		}}
}

func (w *world) source(p string) tms.Premise {
	return tms.Source(p, hashOf(w.text[p]), w.gen[p])
}

func open(t *testing.T, opts tms.Options) (*tms.Store, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "tms.sqlite")
	s, err := tms.Open(ctx, path, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, path
}

func justify(t *testing.T, s *tms.Store, c tms.Conclusion) tms.Record {
	t.Helper()
	r, err := s.Justify(ctx, c)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func sync(t *testing.T, s *tms.Store, env tms.Environment) []tms.Change {
	t.Helper()
	ch, err := s.Sync(ctx, env)
	if err != nil {
		t.Fatal(err)
	}
	return ch
}

func labels(s *tms.Store) map[string]tms.Label {
	out := map[string]tms.Label{}
	for _, r := range s.List(ctx) {
		out[r.ID] = r.Label
	}
	return out
}

// graph is a random set of conclusions over files: each rests on one to
// three files, and some on earlier conclusions too.
type graph struct {
	ids     []string
	sources map[string][]string // id -> paths
	antes   map[string][]string // id -> antecedent ids
}

func build(t *testing.T, s *tms.Store, w *world, rng *rand.Rand, n int) graph {
	t.Helper()
	g := graph{sources: map[string][]string{}, antes: map[string][]string{}}
	paths := slices.Sorted(maps.Keys(w.text))
	for i := range n {
		var ps []tms.Premise
		var used []string
		for _, k := range rng.Perm(len(paths))[:1+rng.Intn(3)] {
			ps = append(ps, w.source(paths[k]))
			used = append(used, paths[k])
		}
		kind := tms.KindAnswer
		var antes []string
		if i > 0 && rng.Intn(3) == 0 {
			antes = []string{g.ids[rng.Intn(len(g.ids))]}
			kind = tms.KindContext
		}
		r := justify(t, s, tms.Conclusion{Key: fmt.Sprintf("q%d", i), Kind: kind, Premises: ps, Antecedents: antes})
		g.ids = append(g.ids, r.ID)
		g.sources[r.ID], g.antes[r.ID] = used, antes
	}
	return g
}

// oracle: a conclusion is OUT iff one of its files is in edited or one
// of its antecedents is OUT.
func (g graph) oracle(edited map[string]bool) map[string]tms.Label {
	out := map[string]tms.Label{}
	for _, id := range g.ids { // antecedents come first
		l := tms.In
		for _, p := range g.sources[id] {
			if edited[p] {
				l = tms.Out
			}
		}
		for _, a := range g.antes[id] {
			if out[a] == tms.Out {
				l = tms.Out
			}
		}
		out[id] = l
	}
	return out
}

// TestAnEditTurnsExactlyTheDependentConclusionsOut: over random
// conclusions and dependants, an edit to some files turns OUT exactly the
// conclusions resting on them and, transitively, their dependants; the
// changes Sync reports are exactly those, each naming the rule and
// withdrawing answers and re-deriving context.
func TestAnEditTurnsExactlyTheDependentConclusionsOut(t *testing.T) {
	for seed := int64(1); seed <= 5; seed++ {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			rng := rand.New(rand.NewSource(seed))
			files := map[string]string{}
			for i := range 8 {
				files[fmt.Sprintf("f%d.go", i)] = fmt.Sprintf("package f\nfunc F%d() {}\n", i)
			}
			w := newWorld(files)
			s, _ := open(t, tms.Options{})
			sync(t, s, w.env())
			g := build(t, s, w, rng, 40)
			edited := map[string]bool{}
			for _, k := range rng.Perm(8)[:2] {
				p := fmt.Sprintf("f%d.go", k)
				edited[p] = true
				w.set(p, files[p]+"// edited\n")
			}
			changes := sync(t, s, w.env())
			want := g.oracle(edited)
			if diff := cmp.Diff(want, labels(s)); diff != "" {
				t.Fatalf("labels after the edit (-oracle +store):\n%s", diff)
			}
			wentOut := map[string]bool{}
			for _, c := range changes {
				wentOut[c.ID] = true
				if c.From != tms.In || c.To != tms.Out {
					t.Errorf("%s: %s -> %s", c.ID, c.From, c.To)
				}
				wantAction := map[tms.Kind]tms.Action{tms.KindAnswer: tms.ActionWithdraw, tms.KindContext: tms.ActionRederive}[c.Kind]
				if c.Action != wantAction || (c.Because.Rule != "tms_source_changed" && c.Because.Rule != "tms_antecedent_out") {
					t.Errorf("%s (%s): action %s because %s", c.ID, c.Kind, c.Action, c.Because)
				}
			}
			for id, l := range want {
				if (l == tms.Out) != wentOut[id] {
					t.Errorf("%s: oracle %s, reported as changed: %v", id, l, wentOut[id])
				}
			}
		})
	}
}

// TestRestoringTheBytesTurnsThemInWithoutRelabellingTheRest: a second
// edit restoring the bytes turns the OUT conclusions IN again (action
// restore, no Justify: derivations unchanged) even though the files'
// generations moved on, and the rules are only asked about the
// conclusions resting on the edited file, never the rest.
func TestRestoringTheBytesTurnsThemInWithoutRelabellingTheRest(t *testing.T) {
	w := newWorld(map[string]string{"a.go": "package a\nfunc A() {}\n", "b.go": "package b\nfunc B() {}\n"})
	s, _ := open(t, tms.Options{})
	sync(t, s, w.env())
	ra := justify(t, s, tms.Conclusion{Key: "qa", Kind: tms.KindAnswer, Premises: []tms.Premise{w.source("a.go")}})
	rc := justify(t, s, tms.Conclusion{Key: "ca", Kind: tms.KindContext, Premises: []tms.Premise{w.source("a.go")}, Antecedents: []string{ra.ID}})
	var rest []string
	for i := range 20 {
		rest = append(rest, justify(t, s, tms.Conclusion{Key: fmt.Sprint("qb", i), Kind: tms.KindAnswer, Premises: []tms.Premise{w.source("b.go")}}).ID)
	}
	before := s.Relabelled()
	w.set("a.go", "package a\nfunc A() { panic(1) }\n")
	out := sync(t, s, w.env())
	w.set("a.go", "package a\nfunc A() {}\n")
	back := sync(t, s, w.env())
	if n := s.Relabelled() - before; n != 4 {
		t.Errorf("the rules were asked about %d conclusions over two edits of a.go; want 4 (its answer and context, twice)", n)
	}
	got := func(cs []tms.Change) []string {
		var ss []string
		for _, c := range cs {
			ss = append(ss, fmt.Sprintf("%s %s->%s %s", c.Key, c.From, c.To, c.Action))
		}
		return ss
	}
	if diff := cmp.Diff([]string{"qa in->out withdraw", "ca in->out rederive"}, got(out)); diff != "" {
		t.Errorf("after the edit (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"qa out->in restore", "ca out->in restore"}, got(back)); diff != "" {
		t.Errorf("after restoring the bytes (-want +got):\n%s", diff)
	}
	for _, r := range s.List(ctx) {
		if r.Label != tms.In || r.Derivations != 1 {
			t.Errorf("%s: %s after %d derivations", r.Key, r.Label, r.Derivations)
		}
	}
	_ = rc
	_ = rest
}

// TestAChangeElsewhereWithdrawsAnAnswerOnlyWhenItMentionsTheTerms: an
// answer's closed-world premise fails when a file other than its sources
// changes to mention one of its terms (or appears mentioning it), holds
// when the change does not mention them, and holds again when the bytes
// are restored; an answer from embeddings (any change) fails on any
// change elsewhere.
func TestAChangeElsewhereWithdrawsAnAnswerOnlyWhenItMentionsTheTerms(t *testing.T) {
	w := newWorld(map[string]string{"a.go": "func Serve() {}\n", "b.go": "func Other() {}\n"})
	s, _ := open(t, tms.Options{})
	sync(t, s, w.env())
	lex := justify(t, s, tms.Conclusion{Key: "serve", Kind: tms.KindAnswer, Premises: []tms.Premise{w.source("a.go"), tms.Elsewhere("serve")}})
	vec := justify(t, s, tms.Conclusion{Key: "vector serve", Kind: tms.KindAnswer, Premises: []tms.Premise{w.source("a.go"), tms.Elsewhere()}})
	steps := []struct {
		name     string
		edit     func()
		lex, vec tms.Label
		rule     string
	}{
		{"an unrelated edit", func() { w.set("b.go", "func Other2() {}\n") }, tms.In, tms.Out, ""},
		{"an edit that mentions the term", func() { w.set("b.go", "func Other() { Serve() }\n") }, tms.Out, tms.Out, "tms_new_match_elsewhere"},
		{"the bytes restored", func() { w.set("b.go", "func Other() {}\n") }, tms.In, tms.In, ""},
		{"a new file mentioning it", func() { w.set("c.go", "func ServeAll() {}\n") }, tms.Out, tms.Out, "tms_new_match_elsewhere"},
		{"the new file gone", func() { delete(w.text, "c.go") }, tms.In, tms.In, ""},
	}
	for _, st := range steps {
		st.edit()
		sync(t, s, w.env())
		l, _ := s.Get(ctx, lex.ID)
		v, _ := s.Get(ctx, vec.ID)
		if l.Label != st.lex || v.Label != st.vec {
			t.Errorf("%s: lexical answer %s (want %s), embedding answer %s (want %s)", st.name, l.Label, st.lex, v.Label, st.vec)
		}
		if st.rule != "" && l.Because.Rule != st.rule {
			t.Errorf("%s: because %s, want %s", st.name, l.Because, st.rule)
		}
	}
}

// TestWhatIfListsWhatWouldGoOutWithoutChangingAnything.
func TestWhatIfListsWhatWouldGoOutWithoutChangingAnything(t *testing.T) {
	w := newWorld(map[string]string{"a.go": "A", "b.go": "B"})
	s, _ := open(t, tms.Options{})
	sync(t, s, w.env())
	ra := justify(t, s, tms.Conclusion{Key: "qa", Kind: tms.KindAnswer, Premises: []tms.Premise{w.source("a.go")}})
	justify(t, s, tms.Conclusion{Key: "ca", Kind: tms.KindContext, Premises: []tms.Premise{w.source("b.go")}, Antecedents: []string{ra.ID}})
	justify(t, s, tms.Conclusion{Key: "qb", Kind: tms.KindAnswer, Premises: []tms.Premise{w.source("b.go")}})
	before := labels(s)
	ch, err := s.WhatIf(ctx, "a.go")
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, c := range ch {
		keys = append(keys, c.Key+":"+c.Because.Rule)
	}
	if diff := cmp.Diff([]string{"qa:tms_source_changed", "ca:tms_antecedent_out"}, keys); diff != "" {
		t.Errorf("whatif a.go (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(before, labels(s)); diff != "" {
		t.Errorf("WhatIf changed labels:\n%s", diff)
	}
}

// TestCheckLabelsAgainstTheSyncedSnapshot: Check, the guard before a
// cached conclusion is served, says OUT for one whose file changed even
// if its stored label was not updated (a stale stored label is never
// trusted), and IN otherwise.
func TestCheckLabelsAgainstTheSyncedSnapshot(t *testing.T) {
	w := newWorld(map[string]string{"a.go": "A"})
	s, _ := open(t, tms.Options{})
	sync(t, s, w.env())
	stale := tms.Source("a.go", hashOf("old bytes"), 1)
	r := justify(t, s, tms.Conclusion{Key: "q", Kind: tms.KindAnswer, Premises: []tms.Premise{stale}})
	if r.Label != tms.Out {
		t.Errorf("a conclusion justified by bytes that are not current is %s", r.Label)
	}
	good := justify(t, s, tms.Conclusion{Key: "q", Kind: tms.KindAnswer, Premises: []tms.Premise{w.source("a.go")}})
	c, err := s.Check(ctx, good.ID)
	if err != nil || c.Label != tms.In {
		t.Fatalf("check: %v %v", c.Label, err)
	}
	if got := s.Lookup(ctx, "q"); len(got) != 2 || got[0].ID != good.ID {
		t.Errorf("lookup puts the IN conclusion first: %+v", got)
	}
}

// TestConclusionsPersistPerKnowledgeBase: a reopened store has the
// conclusions and labels, and relabels them against the snapshot it is
// synced with (an edit made while it was closed turns them OUT).
func TestConclusionsPersistPerKnowledgeBase(t *testing.T) {
	w := newWorld(map[string]string{"a.go": "A", "b.go": "B"})
	s, path := open(t, tms.Options{})
	sync(t, s, w.env())
	ra := justify(t, s, tms.Conclusion{Key: "qa", Kind: tms.KindAnswer, Title: "A?", Premises: []tms.Premise{w.source("a.go"), tms.Elsewhere("zzz")}, Value: []byte("answer")})
	rb := justify(t, s, tms.Conclusion{Key: "qb", Kind: tms.KindAnswer, Premises: []tms.Premise{w.source("b.go")}})
	s.Close()
	w.set("a.go", "A2")
	s2, err := tms.Open(ctx, path, tms.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	if _, err := s2.Justify(ctx, tms.Conclusion{Key: "x", Kind: tms.KindAnswer}); !errors.Is(err, tms.ErrNoEnvironment) {
		t.Errorf("justify before sync: %v", err)
	}
	ch := sync(t, s2, w.env())
	if len(ch) != 1 || ch[0].ID != ra.ID || ch[0].To != tms.Out {
		t.Errorf("changes after reopening: %+v", ch)
	}
	got, err := s2.Get(ctx, ra.ID)
	if err != nil || string(got.Value) != "answer" || got.Title != "A?" {
		t.Errorf("reopened record: %+v, %v", got, err)
	}
	if got, _ := s2.Get(ctx, rb.ID); got.Label != tms.In {
		t.Errorf("b's answer: %s", got.Label)
	}
}

// TestEvictionKeepsTheStoreBoundedOutFirstWithDependants: over the bound,
// OUT conclusions go first, then the least recently used, each with its
// dependants; a touched conclusion stays.
func TestEvictionKeepsTheStoreBoundedOutFirstWithDependants(t *testing.T) {
	w := newWorld(map[string]string{"a.go": "A", "b.go": "B"})
	clock := time.Unix(0, 0)
	s, _ := open(t, tms.Options{MaxConclusions: 4, Now: func() time.Time { clock = clock.Add(time.Second); return clock }})
	sync(t, s, w.env())
	b := []tms.Premise{w.source("b.go")}
	keys := func() []string {
		var ks []string
		for _, r := range s.List(ctx) {
			ks = append(ks, r.Key)
		}
		return ks
	}
	old := justify(t, s, tms.Conclusion{Key: "old", Kind: tms.KindAnswer, Premises: b})
	justify(t, s, tms.Conclusion{Key: "dep", Kind: tms.KindContext, Premises: b, Antecedents: []string{old.ID}})
	justify(t, s, tms.Conclusion{Key: "outA", Kind: tms.KindAnswer, Premises: []tms.Premise{w.source("a.go")}})
	kept := justify(t, s, tms.Conclusion{Key: "kept", Kind: tms.KindAnswer, Premises: b})
	w.set("a.go", "A2")
	sync(t, s, w.env())
	justify(t, s, tms.Conclusion{Key: "new1", Kind: tms.KindAnswer, Premises: b})
	if diff := cmp.Diff([]string{"old", "dep", "kept", "new1"}, keys()); diff != "" {
		t.Errorf("the OUT conclusion goes first (-want +got):\n%s", diff)
	}
	justify(t, s, tms.Conclusion{Key: "new2", Kind: tms.KindAnswer, Premises: b})
	if diff := cmp.Diff([]string{"kept", "new1", "new2"}, keys()); diff != "" {
		t.Errorf("the least recently used goes next, with its dependant (-want +got):\n%s", diff)
	}
	if err := s.Touch(ctx, kept.ID); err != nil {
		t.Fatal(err)
	}
	justify(t, s, tms.Conclusion{Key: "new3", Kind: tms.KindAnswer, Premises: b})
	justify(t, s, tms.Conclusion{Key: "new4", Kind: tms.KindAnswer, Premises: b})
	if diff := cmp.Diff([]string{"kept", "new2", "new3", "new4"}, keys()); diff != "" {
		t.Errorf("a touched conclusion stays (-want +got):\n%s", diff)
	}
}

// TestBadConclusionsAreRefused.
func TestBadConclusionsAreRefused(t *testing.T) {
	s, _ := open(t, tms.Options{})
	sync(t, s, tms.Environment{})
	for _, c := range []tms.Conclusion{
		{Kind: tms.KindAnswer},
		{Key: "k", Kind: "belief"},
		{Key: "k", Kind: tms.KindAnswer, Premises: []tms.Premise{{Kind: "vibes"}}},
		{Key: "k", Kind: tms.KindAnswer, Premises: []tms.Premise{{Kind: tms.PremiseSource, Path: "a.go"}}},
		{Key: "k", Kind: tms.KindAnswer, Antecedents: []string{"nobody"}},
		{Key: strings.Repeat("k", tms.MaxKeyBytes+1), Kind: tms.KindAnswer},
	} {
		if _, err := s.Justify(ctx, c); !errors.Is(err, tms.ErrBadConclusion) {
			t.Errorf("%+v: %v", c, err)
		}
	}
	if s.Len() != 0 {
		t.Errorf("refused conclusions were kept: %d", s.Len())
	}
}
