package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/rlm-dev/rlm/bridge"
)

// swiResult is what bench/plan/swi.pl measured: per mode ("untabled",
// "tabled"), the per-call times by class and over all queries, and the
// plan signature SWI gave each query (planSignature's form).
type swiResult struct {
	byMode map[string]*timings
	plans  map[int]string
}

// runSWI writes the features of every query (and the word forms the
// host predicate word_forms/2 would give for their words) as SWI-Prolog
// facts, runs bench/plan/swi.pl and reads its timings and plans back.
func runSWI(qs []query, n int) (*swiResult, error) {
	dir, err := os.MkdirTemp("", "rlm-plan-swi")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	facts := filepath.Join(dir, "features.facts") // not *.pl: swipl would load it as a script and drop it from argv
	var b strings.Builder
	b.WriteString(":- set_prolog_flag(double_quotes, chars).\n")
	forms := map[string]bool{}
	for i, q := range qs {
		f := bridge.QueryFeatures(q.text)
		fmt.Fprintf(&b, "q(%d, %s, %s).\n", i, q.class, featuresText(f))
		words := append([]string(nil), f.ContentWords...)
		for _, id := range f.Idents {
			words = append(words, id.Name)
		}
		for _, w := range words {
			forms[w] = true
		}
	}
	// word_forms/2 is a host predicate in rlm (bridge.WordForms); SWI gets
	// its answers as facts, one per word a query can ask about.
	ws := make([]string, 0, len(forms))
	for w := range forms {
		ws = append(ws, w)
	}
	sort.Strings(ws)
	for _, w := range ws {
		fmt.Fprintf(&b, "word_forms(%s, %s).\n", strconv.Quote(w), quotedList(bridge.WordForms(w)))
	}
	if err := os.WriteFile(facts, []byte(b.String()), 0o644); err != nil {
		return nil, err
	}
	cmd := exec.Command("swipl", "-q", "-g", "main", "-t", "halt", "bench/plan/swi.pl", facts, strconv.Itoa(n))
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("swipl: %w", err)
	}
	res := &swiResult{byMode: map[string]*timings{}, plans: map[int]string{}}
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(l)
		if len(f) >= 2 && f[0] == "plan" {
			i, err := strconv.Atoi(f[1])
			if err != nil {
				return nil, fmt.Errorf("swipl output %q: %w", l, err)
			}
			res.plans[i] = strings.Join(f[2:], " ")
			continue
		}
		if len(f) != 4 {
			continue
		}
		ns, err := strconv.ParseFloat(f[3], 64)
		if err != nil {
			return nil, fmt.Errorf("swipl output %q: %w", l, err)
		}
		t := res.byMode[f[2]]
		if t == nil {
			t = newTimings()
			res.byMode[f[2]] = t
		}
		t.add(f[1], time.Duration(ns))
	}
	if res.byMode["untabled"] == nil || res.byMode["tabled"] == nil {
		return nil, fmt.Errorf("swipl printed no timings")
	}
	return res, nil
}

func quotedList(ss []string) string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = strconv.Quote(s)
	}
	return "[" + strings.Join(out, ", ") + "]"
}

// featuresText writes features as Prolog source for the SWI benchmark file
// only (a benchmark fixture, never a goal of rlm's): strings as quoted
// char lists.
func featuresText(f bridge.Features) string {
	q := strconv.Quote
	var ids []string
	for _, id := range f.Idents {
		ids = append(ids, fmt.Sprintf("id(%s, %s)", q(id.Name), id.Shape))
	}
	obj := "none"
	if f.RelationObject != "" {
		obj = q(f.RelationObject)
	}
	cue := f.Cue()
	switch {
	case f.Production != "":
		cue = fmt.Sprintf("%s(%s)", cue, q(f.Production))
	case f.DocWording:
		cue = fmt.Sprintf("%s(%s)", cue, q(f.Subject))
	}
	var cs []string
	for _, c := range f.Constraints {
		if c.Kind == bridge.ConstraintPath {
			cs = append(cs, fmt.Sprintf("path(%s)", q(c.Value)))
		} else {
			cs = append(cs, fmt.Sprintf("%s('%s')", c.Kind, c.Value))
		}
	}
	var acs []string
	for _, a := range f.Acronyms {
		acs = append(acs, fmt.Sprintf("acronym(%s, %s)", quotedList(a.Words), q(a.Term)))
	}
	return fmt.Sprintf("features(%d, %d, [%s], %s, %s, %s, %s, %s, %s, %s, [%s], %s, %s, [%s])",
		f.Tokens, f.Content, strings.Join(ids, ", "), quotedList(f.Paths), quotedList(f.Quoted), f.Relation, obj, cue, q(f.Text), quotedList(f.ContentWords),
		strings.Join(cs, ", "), quotedList(f.SourceNames), quotedList(f.Opening), strings.Join(acs, ", "))
}
