package cases_test

import (
	"errors"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rlm-dev/rlm/cases"
	"github.com/rlm-dev/rlm/internal/sqlitefile"
)

// evidenceOf is what a case records of its evidence downstream.
type evidenceOf struct {
	Cited, Ignored int
	Used           []string
}

// TestReviseEvidenceRecordsWhichEvidenceAnswersCited: an answer that
// cited a case's evidence counts as cited and names the locations (each
// once, newest last, bounded); one given the evidence that cited none of
// it counts as ignored; retaining the key anew starts over.
func TestReviseEvidenceRecordsWhichEvidenceAnswersCited(t *testing.T) {
	s, err := cases.Open(ctx, filepath.Join(t.TempDir(), "cases.sqlite"), cases.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	retain := func() int64 {
		t.Helper()
		id, err := s.Retain(ctx, cases.Case{Key: "k", Query: "what calls servehttp", Class: "relationship", RulesVersion: "r1"})
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	id := retain()
	many := make([]string, cases.MaxUsedEvidence+2)
	for i := range many {
		many[i] = fmt.Sprintf("m.go:%d", i+1)
	}
	steps := []struct {
		ev   cases.Evidence
		want evidenceOf
	}{
		{cases.Evidence{Used: []string{"a.go:4"}, Unused: []string{"b.go:9"}}, evidenceOf{1, 0, []string{"a.go:4"}}},
		{cases.Evidence{Unused: []string{"a.go:4", "b.go:9"}}, evidenceOf{1, 1, []string{"a.go:4"}}},
		{cases.Evidence{}, evidenceOf{1, 1, []string{"a.go:4"}}},
		{cases.Evidence{Used: []string{"c.go:1", "a.go:4"}}, evidenceOf{2, 1, []string{"c.go:1", "a.go:4"}}},
		{cases.Evidence{Used: many}, evidenceOf{3, 1, many[2:]}},
	}
	for i, st := range steps {
		if err := s.ReviseEvidence(ctx, id, st.ev); err != nil {
			t.Fatal(err)
		}
		cs, err := s.Retrieve(ctx, "k", "r1")
		if err != nil || len(cs) != 1 {
			t.Fatalf("step %d: %v %v", i, cs, err)
		}
		if diff := cmp.Diff(st.want, evidenceOf{cs[0].Cited, cs[0].Ignored, cs[0].UsedEvidence}); diff != "" {
			t.Errorf("step %d %+v (-want +got):\n%s", i, st.ev, diff)
		}
	}
	if err := s.ReviseEvidence(ctx, 999, cases.Evidence{Used: []string{"a.go:1"}}); !errors.Is(err, cases.ErrNotFound) {
		t.Errorf("revising a missing case: %v", err)
	}
	retain()
	cs, err := s.Retrieve(ctx, "k", "r1")
	if err != nil || len(cs) != 1 || cs[0].Cited != 0 || cs[0].Ignored != 0 || len(cs[0].UsedEvidence) != 0 {
		t.Errorf("a case retained anew keeps old evidence: %+v %v", cs, err)
	}
}

// TestAStoreWithoutTheEvidenceColumnsGainsThem: a case store written
// before ReviseEvidence opens, keeps its cases and records evidence.
func TestAStoreWithoutTheEvidenceColumnsGainsThem(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cases.sqlite")
	s, err := cases.Open(ctx, path, cases.Options{})
	if err != nil {
		t.Fatal(err)
	}
	id, err := s.Retain(ctx, cases.Case{Key: "k", Query: "q", Class: "broad", RulesVersion: "r1"})
	s.Close()
	if err != nil {
		t.Fatal(err)
	}
	db, err := sqlitefile.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, col := range []string{"cited", "ignored", "used_evidence"} {
		if _, err := db.ExecContext(ctx, "ALTER TABLE cases DROP COLUMN "+col); err != nil {
			t.Fatal(err)
		}
	}
	var n int
	if err := db.QueryRowContext(ctx, "SELECT count(*) FROM pragma_table_info('cases') WHERE name = 'cited'").Scan(&n); err != nil || n != 0 {
		t.Fatalf("column still there: %d %v", n, err)
	}
	db.Close()
	if s, err = cases.Open(ctx, path, cases.Options{}); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.ReviseEvidence(ctx, id, cases.Evidence{Used: []string{"a.go:1"}}); err != nil {
		t.Fatal(err)
	}
	cs, err := s.List(ctx)
	if err != nil || len(cs) != 1 || cs[0].Query != "q" || cs[0].Cited != 1 {
		t.Errorf("after the upgrade: %+v %v", cs, err)
	}
}
