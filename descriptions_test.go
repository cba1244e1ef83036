package rlm_test

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rlm-dev/rlm"
	"github.com/rlm-dev/rlm/planner"
)

// TestALongDocstringIsFoundByItsFirstSentence: a Python function whose
// docstring goes on to describe each of its options
// (testdata/desc/python, after Python json's loads) is found first by
// its docstring's first sentence, ahead of a method whose one-line
// docstring holds fewer of the sentence's words: a description's BM25
// weighs doc comments more (emphasis(doc)), so the words the doc comment
// shares with the query count more than its length.
func TestALongDocstringIsFoundByItsFirstSentence(t *testing.T) {
	const q = "Read ``s`` (a ``str``, ``bytes`` or ``bytearray`` label holding a parcel code) into a record."
	for _, mode := range []string{"none", "local"} {
		opts := rlm.Options{InMemory: true}
		if mode == "local" {
			e, err := rlm.LocalEmbedder()
			if err != nil {
				t.Fatal(err)
			}
			opts.Embedder = e
		}
		a := searchAll(t, openDescTree(t, "python", opts), q)
		if len(a.Hits) < 2 || a.Hits[0].Symbol != "loads" {
			t.Errorf("embedder %s: want loads first, got:%s", mode, hitList(a))
		}
	}
}

// TestAReturnSentenceIsADescriptionWhateverRelationWordsItHolds: a
// Python method's docstring sentence "Return a reference to the payload."
// (testdata/desc/opening) describes the method; its "reference" and
// "payload" (a name the snapshot knows) make no references question: the
// method it describes is found first.
func TestAReturnSentenceIsADescriptionWhateverRelationWordsItHolds(t *testing.T) {
	p := openDescTree(t, "opening", rlm.Options{InMemory: true})
	const q = "Return a reference to the payload."
	a := searchAll(t, p, q)
	if a.Class != "description" || len(a.Hits) == 0 || a.Hits[0].Symbol != "body_ref" {
		t.Errorf("%q: class %s, want a description answered by body_ref first:%s", q, a.Class, hitList(a))
	}
}

// TestADocSentenceAfterAnOpeningClauseIsAboutItsSubject: "For server
// requests, Host names …" (testdata/desc/clause) is worded as Host's doc
// comment once its opening clause is set aside: Host's definitions come
// first, ahead of a function whose name and doc share more of the
// sentence's words.
func TestADocSentenceAfterAnOpeningClauseIsAboutItsSubject(t *testing.T) {
	p := openDescTree(t, "clause", rlm.Options{InMemory: true})
	const q = "For server requests, Host names the depot a parcel is sent from."
	a := searchAll(t, p, q)
	if len(a.Hits) == 0 || a.Hits[0].Qualified != "Request.Host" {
		t.Errorf("%q: want Request.Host first:%s", q, hitList(a))
	}
}

// openDescTree opens testdata/desc/NAME with opts, closed when the test
// ends.
func openDescTree(t *testing.T, name string, opts rlm.Options) *rlm.Project {
	t.Helper()
	p, err := rlm.Open(context.Background(), filepath.Join("testdata", "desc", name), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

// TestALowercaseCompoundNameIsFoundByADescriptionOfItsParts: a Python
// method written without separators, getaddrlist (testdata/desc/compound,
// after Python email's _parseaddr, no docstrings), is found first by a
// description that uses its parts, addr and list: the search index splits
// the name into the tree's own words (get_addr_spec gives get and addr,
// parse_list list), where it would otherwise hold it as one word that no
// description's word matches.
func TestALowercaseCompoundNameIsFoundByADescriptionOfItsParts(t *testing.T) {
	p := openDescTree(t, "compound", rlm.Options{InMemory: true})
	const q = "Gather every addr list."
	a := searchAll(t, p, q)
	if len(a.Hits) == 0 || a.Hits[0].Qualified != "Scanner.getaddrlist" {
		t.Errorf("%q: class %s, want Scanner.getaddrlist first:%s", q, a.Class, hitList(a))
	}
}

// TestADocSentenceWithARelationWordIsAboutItsSubject: doc sentences
// whose words read like a relation question are descriptions
// (testdata/desc/testdoc): "loggingConn is used for debugging." is about
// the type (not a question about references to "debugging"), and a
// test's "Test that Ship invokes Weigh." is that test's doc (not a
// question about Weigh's callers).
func TestADocSentenceWithARelationWordIsAboutItsSubject(t *testing.T) {
	p := openDescTree(t, "testdoc", rlm.Options{InMemory: true})
	wantFirst(t, p, "description", func(h planner.Hit) string { return h.Symbol }, map[string]string{
		"loggingConn is used for debugging.": "loggingConn",
		"Test that Ship invokes Weigh.":      "TestShipCallsWeigh",
	})
}

// wantFirst checks that each query of cases (query -> want) is answered
// first by a hit whose key is want and, when class is not "", that it is
// of that class.
func wantFirst(t *testing.T, p *rlm.Project, class string, key func(planner.Hit) string, cases map[string]string) {
	t.Helper()
	for q, want := range cases {
		a := searchAll(t, p, q)
		if class != "" && a.Class != class || len(a.Hits) == 0 || key(a.Hits[0]) != want {
			t.Errorf("%q: class %s, want %s (class %q) first:%s", q, a.Class, want, class, hitList(a))
		}
	}
}

// TestAnUndocumentedDefinitionIsFoundByTheWordsOfItsOwnCode: on code
// without doc comments (testdata/desc/nodoc, after Python email with its
// docstrings stripped) a definition is indexed by its own source lines:
// "Wrap long lines at the column limit." finds fold, whose inline comment
// and code say it, ahead of the functions whose names hold those words.
// A line is its innermost definition's (the class Depot is not found by
// its method's comment), and a documented definition is described by its
// doc comment, not its code (pack is not found by its comment's
// "shrinkwrap").
func TestAnUndocumentedDefinitionIsFoundByTheWordsOfItsOwnCode(t *testing.T) {
	p := openDescTree(t, "nodoc", rlm.Options{InMemory: true})
	tests := []struct {
		query, first string // first: the definition wanted first ("" for any)
		absent       string // a definition that must not be a hit
	}{
		{"Wrap long lines at the column limit.", "fold", ""},
		{"Stack the heaviest crates at the bottom.", "Depot.stow", "Depot"},
		{"Shrinkwrap it onto the pallet.", "", "pack"},
	}
	for _, tc := range tests {
		a := searchAll(t, p, tc.query)
		if tc.first != "" && (len(a.Hits) == 0 || a.Hits[0].Qualified != tc.first) {
			t.Errorf("%q: want %s first:%s", tc.query, tc.first, hitList(a))
		}
		for _, h := range a.Hits {
			if tc.absent != "" && h.Qualified == tc.absent {
				t.Errorf("%q: %s is a hit, want it absent:%s", tc.query, tc.absent, hitList(a))
			}
		}
	}
}

// TestASpecialMethodIsFoundByTheLanguagesWordsForIt: a Python special
// method's name shares no word with the sentences that describe it
// ("__len__" for "Return the number of …"); undocumented
// (testdata/desc/special, after Python email's message.py with its
// docstrings stripped) it is found first by the words the language
// reference describes it by, and among namesakes by its class's words:
// each oracle is the definition's file and line.
func TestASpecialMethodIsFoundByTheLanguagesWordsForIt(t *testing.T) {
	p := openDescTree(t, "special", rlm.Options{InMemory: true})
	wantFirst(t, p, "", func(h planner.Hit) string { return fmt.Sprintf("%s:%d", h.Path, h.StartLine) }, map[string]string{
		"Return the number of crates on the shelf.":        "depot.py:11", // Shelf.__len__
		"Return an iterator over the crates of the shelf.": "depot.py:14", // Shelf.__iter__
		"Create a shelf of the given crates and policy.":   "depot.py:7",  // Shelf.__init__
		"Create a ledger for a shelf.":                     "depot.py:26", // Ledger.__init__
	})
}

// TestADescriptionsSubjectIsThePublicDefinitionBeforeItsInternalNamesake:
// a doc sentence whose subject is defined in a public package and, by the
// same name, in an internal one (testdata/desc/internal, after
// encoding/json's jsontext.AllowInvalidUTF8 and
// internal/jsonflags.AllowInvalidUTF8, doc comments stripped) finds the
// public definition first, though the internal one's inline comment holds
// more of the sentence's words; a subject only an internal package
// defines is still found first.
func TestADescriptionsSubjectIsThePublicDefinitionBeforeItsInternalNamesake(t *testing.T) {
	p := openDescTree(t, "internal", rlm.Options{InMemory: true})
	wantFirst(t, p, "", func(h planner.Hit) string { return h.Path }, map[string]string{
		"StableLabels specifies that the same crate is printed with the same label bytes.": "ship/options.go",
		"SortedCrates specifies that crates are kept in sorted order.":                     "internal/shipflags/flags.go",
	})
}

// TestAGrammarRuleFindsTheParserOfItsName: a query that opens with a
// grammar rule (testdata/desc/grammar, after Python email's
// _header_value_parser with its docstrings stripped, whose parsers'
// docstrings open with the rule they parse) finds the definition whose
// name holds the rule's name first — get_labeltext for "labeltext = …" —
// ahead of the helper and the constants its right-hand side names, which
// BM25 alone ranks first.
func TestAGrammarRuleFindsTheParserOfItsName(t *testing.T) {
	p := openDescTree(t, "grammar", rlm.Options{InMemory: true})
	const q = "labeltext = 1*(any non-LABEL_ENDS character)"
	a := searchAll(t, p, q)
	if a.Class != "description" || len(a.Hits) < 2 || a.Hits[0].Symbol != "get_labeltext" {
		t.Errorf("%q: class %s, want a description answered by get_labeltext first:%s", q, a.Class, hitList(a))
	}
}

// TestANounPhraseNamingAKindOfTypeFindsTheType: a class without a
// docstring whose name holds none of a description's words
// (testdata/desc/typeword, after Python http's CookieJar) is found first
// by a noun phrase that describes it, "Collection of shipping crates.":
// its methods are named after crates, and two or more of them among the
// hits bring it in (types(first): the type joins them, and types rank
// first). A verb and its object ("Count the crates.") still finds the
// method, and a test class (ShippingCratesCase, demoted) does not jump
// ahead of the code's own definitions.
func TestANounPhraseNamingAKindOfTypeFindsTheType(t *testing.T) {
	p := openDescTree(t, "typeword", rlm.Options{InMemory: true})
	wantFirst(t, p, "", func(h planner.Hit) string { return h.Qualified }, map[string]string{
		"Collection of shipping crates.": "Ledger",
		"A registry of shipping crates.": "Ledger",
		"Count the crates.":              "Ledger.count_crates",
	})
	// The nested type whose lines hold the members joins, not a
	// top-level type of the same name (nest.py: Store, Warehouse.Store);
	// a type joined to a page short of the limit displaces no match
	// (jar.py: both of Jar's methods stay).
	wantFirst(t, p, "", func(h planner.Hit) string { return h.Qualified }, map[string]string{
		"Collection of gadgets.": "Warehouse.Store",
	})
	jar := searchAll(t, p, "Collection of pickles.")
	var got []string
	for _, h := range jar.Hits {
		got = append(got, h.Qualified)
	}
	if want := []string{"Jar", "Jar.add_pickle", "Jar.eat_pickle"}; !slices.Equal(got[:min(3, len(got))], want) {
		t.Errorf("Collection of pickles.: got %q, want %q first", got, want)
	}
	a := searchAll(t, p, "Collection of shipping crates.")
	for i, h := range a.Hits {
		if h.Test && i < len(a.Hits)-1 && !a.Hits[i+1].Test {
			t.Errorf("a test definition ranks before the code's own:%s", hitList(a))
			break
		}
	}
}

// TestAnAcronymInTheCodeIsFoundByTheWordsItAbbreviates: an undocumented
// function whose name abbreviates what a description spells out
// (testdata/desc/acronym, after Python http's is_HDN, "Return True if
// text is a host domain name.") is found first by that description: the
// snapshot's search index holds the term sku, the initials of "stock
// keeping unit", so the search text adds it (cx_acronym), while the
// functions named after stock and units hold more of the sentence's own
// words. Words whose initials the index does not hold add nothing, nor
// do words the tree names in full (reorder_point_level, while rpl is
// another function's parameter): they find their definition themselves.
func TestAnAcronymInTheCodeIsFoundByTheWordsItAbbreviates(t *testing.T) {
	p := openDescTree(t, "acronym", rlm.Options{InMemory: true})
	wantFirst(t, p, "", func(h planner.Hit) string { return h.Qualified }, map[string]string{
		"Return True if text is a stock keeping unit.": "is_SKU",
	})
	tests := []struct {
		query, acronym string
		added          bool
	}{
		{"Return True if text is a stock keeping unit.", "sku", true},
		{"Return True if text is a stock unit price.", "sup", false},   // no term of the index
		{"Return the reorder point level of the shelf.", "rpl", false}, // named in full too
	}
	for _, tc := range tests {
		got := false
		for _, s := range searchAll(t, p, tc.query).Plan {
			if slices.Contains(strings.Fields(s.Text), tc.acronym) {
				got = true
			}
		}
		if got != tc.added {
			t.Errorf("%q: a step's text holds %s: %v, want %v", tc.query, tc.acronym, got, tc.added)
		}
	}
}
