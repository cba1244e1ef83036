package rlm_test

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rlm-dev/rlm"
)

// The trees of testdata/calls (Go, Python, JavaScript, Java, Rust, C++)
// define the same name twice — two packages' or modules' Unmarshal, loads
// or parse, two types' Read or send — and
// call each through imports, aliases, declared receivers, fields and
// call results, and call functions defined outside the tree (fmt.Sprintf,
// os.path.join, path.join, String.format).

var (
	callTrees   = map[string]*rlm.Project{}
	callTreesMu sync.Mutex
)

func callTree(t *testing.T, lang string) *rlm.Project {
	t.Helper()
	callTreesMu.Lock()
	defer callTreesMu.Unlock()
	if p := callTrees[lang]; p != nil {
		return p
	}
	p, err := rlm.Open(context.Background(), filepath.Join("testdata", "calls", lang), rlm.Options{InMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	callTrees[lang] = p
	return p
}

// callersCase is a callers question on one of the trees and the hits it
// must give, "path:line Qualified match", in order.
type callersCase struct {
	lang, query string
	want        []string
}

// checkCallers asks each case's question: the hits must be the wanted
// ones, and the answer about the question's own name.
func checkCallers(t *testing.T, tests []callersCase) {
	t.Helper()
	for _, tc := range tests {
		t.Run(tc.lang+"/"+tc.query, func(t *testing.T) {
			a, err := callTree(t, tc.lang).Search(context.Background(), tc.query, 20)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tc.want, callers(a)); d != "" {
				t.Errorf("hits (-want +got):\n%s", d)
			}
			if a.Resolved != nil {
				t.Errorf("answered for %+v, want the query's own name", a.Resolved)
			}
		})
	}
}

// callers is an answer's hits as "path:line Qualified match".
func callers(a *rlm.Answer) []string {
	out := []string{}
	for _, h := range a.Hits {
		out = append(out, fmt.Sprintf("%s:%d %s %s", h.Path, h.StartLine, h.Qualified, h.Match))
	}
	return out
}

// TestCallersFollowQualifiersAndReceiversNotNames (issue 10, fault 4): a
// package or module qualifier and a receiver type select one definition;
// calls resolved to another definition of the same name are not its
// callers, in every language whose syntax shows it.
func TestCallersFollowQualifiersAndReceiversNotNames(t *testing.T) {
	tests := []callersCase{
		{"go", "what calls json.Unmarshal?", []string{"web/handler.go:11 parseJSON resolved", "codec/json/json.go:14 Decoder.Decode resolved"}},
		{"go", "what calls xml.Unmarshal?", []string{"web/handler.go:13 parseXML resolved"}},
		{"go", "what calls Unmarshal?", []string{"web/handler.go:11 parseJSON resolved", "web/handler.go:13 parseXML resolved",
			"codec/json/json.go:14 Decoder.Decode resolved"}},
		// Through a field (r.Body), a declared variable, a call's result.
		{"go", "what calls body.Read?", []string{"web/body.go:10 conn.Read resolved", "web/handler.go:15 readBody resolved"}},
		{"go", "what calls conn.Read?", []string{"web/handler.go:17 readConn resolved", "web/handler.go:22 readNewConn resolved"}},
		{"go", "what calls Decoder.Decode?", []string{"web/handler.go:30 decode resolved"}},
		{"python", "what calls jsonlike.loads?", []string{"app.py:7 read_json resolved", "pkg/jsonlike.py:7 Decoder.decode resolved"}},
		{"python", "what calls xmllike.loads?", []string{"app.py:11 read_xml resolved"}},
		{"python", "what calls Decoder.decode?", []string{"app.py:15 decode resolved"}},
		{"python", "what calls Client.flush?", []string{"app.py:25 Client.send resolved"}},
		{"js", "what calls json.parse?", []string{"app.js:5 readJSON resolved"}},
		{"js", "what calls xml.parse?", []string{"app.js:9 readXML resolved"}},
		{"js", "what calls Router.route?", []string{"app.js:18 Router.handle resolved"}},
		{"java", "what calls Json.parse?", []string{"src/main/java/com/acme/web/Router.java:7 Router.readJson resolved"}},
		{"java", "what calls Xml.parse?", []string{"src/main/java/com/acme/web/Router.java:11 Router.readXml resolved"}},
		{"java", "what calls Router.route?", []string{"src/main/java/com/acme/web/Router.java:15 Router.handle resolved"}},
		{"rust", "what calls Conn.send?", []string{"src/server.rs:6 Server.serve resolved"}},
		{"rust", "what calls Mail.send?", []string{"src/mail.rs:8 post resolved"}},
		{"rust", "what calls Conn.open?", []string{"src/server.rs:13 Server.dial resolved"}},
		{"cpp", "what calls Conn.send?", []string{"server.cpp:4 serve resolved"}},
		{"cpp", "what calls Mail.send?", []string{"server.cpp:6 post resolved"}},
		{"cpp", "what calls Conn.open?", []string{"server.cpp:8 dial resolved"}},
	}
	checkCallers(t, tests)
}

// TestCallersOfANameDefinedOutsideTheTreeAreItsCallSites (issue 10,
// fault 5): a name the tree does not define is answered with the calls
// that resolve to it outside the tree, marked external; a qualified name
// nothing defines or calls is answered with nothing, never with the
// callers of another name.
func TestCallersOfANameDefinedOutsideTheTreeAreItsCallSites(t *testing.T) {
	tests := []callersCase{
		{"go", "what calls Sprintf?", []string{"web/handler.go:35 label external"}},
		{"go", "what calls fmt.Sprintf?", []string{"web/handler.go:35 label external"}},
		{"go", "what calls strings.HasPrefix?", []string{"web/handler.go:35 label external"}},
		{"go", "what calls strings.Zqxv?", []string{}},
		{"go", "what calls fmt.HasPrefix?", []string{}},
		{"python", "what calls os.path.join?", []string{"app.py:20 join_path external"}},
		{"js", "what calls path.join?", []string{"app.js:13 where external"}},
		{"java", "what calls String.format?", []string{"src/main/java/com/acme/web/Router.java:22 Router.label external"}},
	}
	checkCallers(t, tests)
}

// TestCallersByNameOnlyWhenNothingResolves: a method no call resolves to
// is answered with the calls of its name, each marked so — and only then.
func TestCallersByNameOnlyWhenNothingResolves(t *testing.T) {
	p := callTree(t, "python")
	// Client.flush: self.flush() resolves; c.flush() in other() does not,
	// and is left out.
	a, err := p.Search(context.Background(), "what calls flush?", 20)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{"app.py:25 Client.send resolved"}, callers(a)); d != "" {
		t.Errorf("what calls flush? (-want +got):\n%s", d)
	}
	// Pool.close: no call resolves to it; shutdown's c.close() may, by
	// name, and says so.
	a, err = p.Search(context.Background(), "what calls Pool.close?", 20)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{"app.py:42 shutdown name"}, callers(a)); d != "" || a.Resolved != nil {
		t.Errorf("what calls Pool.close? (-want +got):\n%s (resolved %+v)", d, a.Resolved)
	}
	// Client.send: nothing calls it, by any means: nothing, and no other
	// name.
	a, err = p.Search(context.Background(), "what calls Client.send?", 20)
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Hits) != 0 || a.Resolved != nil {
		t.Errorf("what calls Client.send?: %v resolved %+v, want nothing", callers(a), a.Resolved)
	}
	// Go: readAny's rd.Read() goes through an interface; a Read method
	// whose calls all do so would be answered by name.
	g := callTree(t, "go")
	a, err = g.Search(context.Background(), "what calls Read?", 20)
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range a.Hits {
		if h.Symbol == "readAny" || h.Match != rlm.MatchResolved {
			t.Errorf("what calls Read?: %s:%d %s (%s): a call through an interface or by name among resolved callers",
				h.Path, h.StartLine, h.Qualified, h.Match)
		}
	}
}
