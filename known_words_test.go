package rlm_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rlm-dev/rlm"
)

// knownWordsTree is a small Python, Ruby and C++ tree whose names are
// lowercase words and names with their language's legal characters.
var knownWordsTree = map[string]string{
	"client.py": `class CannotSendRequest(Exception):
    """Raised when the request cannot be sent."""


class CannotSendHeader(Exception):
    """Raised when a header cannot be sent."""


def _send_request(conn, method):
    """Send a request over a connection."""
    conn.send(method)


class HTTPConnection:
    def send(self, data):
        """Send data to the server."""
        return data

    def putrequest(self, method, url):
        """Send a request line to the server."""
        return fetch(url)


def get(url):
    return fetch(url)


def fetch(url):
    return url


def a():
    return 1
`,
	"conn.cpp": `struct Conn {
  int fd;
  ~Conn() { close(fd); }
  bool operator==(const Conn& o) const { return fd == o.fd; }
};
`,
	"stack.rb": `class Stack
  def empty?
    @items.empty?
  end

  def empty
    @items.clear
  end

  def save!
    true
  end

  def name=(value)
    @name = value
  end
end
`,
}

func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestWordsTheSnapshotKnowsAreNamesInQuestions: a definition cue or a
// relation word with a lowercase word, or a name with its language's
// legal characters, that the snapshot knows as a symbol name is an
// identifier or relationship question, answered by that symbol, and the
// rule that decided it is in the explanation.
func TestWordsTheSnapshotKnowsAreNamesInQuestions(t *testing.T) {
	ctx := context.Background()
	p, err := rlm.Open(ctx, writeTree(t, knownWordsTree), rlm.Options{InMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	cases := []struct {
		query, class, rule string
		first              string // "path:line Qualified" of the first hit
	}{
		{"where is send defined?", "identifier", "cls_known_definition", "client.py:15 HTTPConnection.send"},
		{"where is putrequest defined?", "identifier", "cls_known_definition", "client.py:19 HTTPConnection.putrequest"},
		{"what does get call?", "relationship", "cls_known_relation", "client.py:28 fetch"},
		{"where is empty? defined?", "identifier", "cls_known_definition", "stack.rb:2 Stack.empty?"},
		{"where is save! defined", "identifier", "cls_known_definition", "stack.rb:10 Stack.save!"},
		{"name=", "identifier", "cls_known_name", "stack.rb:14 Stack.name="},
		{"empty?", "identifier", "cls_known_name", "stack.rb:2 Stack.empty?"},
		{"where is ~Conn defined?", "identifier", "cls_known_definition", "conn.cpp:3 Conn.~Conn"},
		{"operator==", "identifier", "cls_known_name", "conn.cpp:4 Conn.operator=="},
	}
	for _, c := range cases {
		t.Run(c.query, func(t *testing.T) {
			ans, err := p.Search(ctx, c.query, 5)
			if err != nil {
				t.Fatal(err)
			}
			first := ""
			if len(ans.Hits) > 0 {
				h := ans.Hits[0]
				first = filepath.ToSlash(h.Path) + ":" + strconv.Itoa(h.StartLine) + " " + h.Qualified
			}
			got := []string{ans.Class, ans.Explain[0].Rule, first}
			if d := cmp.Diff([]string{c.class, c.rule, first}, got); d != "" || first != c.first {
				t.Errorf("class, rule, first hit = %v, want %v %v %v (hits %+v)", got, c.class, c.rule, c.first, ans.Hits)
			}
		})
	}
}

// TestAKnownFunctionWordIsStillAWord: "a" names a function of the tree,
// but in a sentence it is an article, not the object of "uses". (The
// sentence is a question: worded as a doc comment, "the runner uses a
// …", it would be a description whatever its relation's object.)
func TestAKnownFunctionWordIsStillAWord(t *testing.T) {
	ctx := context.Background()
	p, err := rlm.Open(ctx, writeTree(t, knownWordsTree), rlm.Options{InMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	ans, err := p.Search(ctx, "which runner uses a request context to cancel the pending call", 5)
	if err != nil {
		t.Fatal(err)
	}
	if ans.Class == "relationship" {
		t.Errorf("class %s by %s: %v", ans.Class, ans.Explain[0].Rule, ans.Explain[0].Premises)
	}
}

// TestAnUnknownWordWithACueIsNotAName: the same question about a word the
// snapshot does not know stays a free-text question.
func TestAnUnknownWordWithACueIsNotAName(t *testing.T) {
	ctx := context.Background()
	p, err := rlm.Open(ctx, writeTree(t, knownWordsTree), rlm.Options{InMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	ans, err := p.Search(ctx, "where is frobnicate defined?", 5)
	if err != nil {
		t.Fatal(err)
	}
	if ans.Class == "identifier" {
		t.Errorf("class %s by %s for an unknown word", ans.Class, ans.Explain[0].Rule)
	}
}
