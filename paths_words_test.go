package rlm_test

import (
	"context"
	"testing"

	"github.com/rlm-dev/rlm"
)

var slashTree = map[string]string{
	"addr.go": `package addr

// SplitHostPort splits the network address into host and port.
func SplitHostPort(a string) (string, string) { return a, "" }

// Pipe is a synchronous read and write channel in memory.
type Pipe struct{}
`,
}

// TestSlashJoinedWordsArePathsOnlyIfTheSnapshotHasThem: "host/port" and
// "read/write" are words in a tree without such directories (the
// description finds its definition), while a directory the tree has is a
// path question.
func TestSlashJoinedWordsArePathsOnlyIfTheSnapshotHasThem(t *testing.T) {
	ctx := context.Background()
	files := map[string]string{
		"store/db.go": "package store\n\n// Open opens the database.\nfunc Open() {}\n",
		// A file whose name starts like a directory the query names
		// ("message/") is no such directory.
		"message.go":      "package addr\n\n// Message is a mail message.\ntype Message struct{}\n",
		"mime/message.go": "package mime\n\n// NewMessage creates a message/* type MIME document.\nfunc NewMessage() {}\n",
	}
	for k, v := range slashTree {
		files[k] = v
	}
	p, err := rlm.Open(ctx, writeTree(t, files), rlm.Options{InMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	for _, c := range []struct{ query, first string }{
		{"splits the network address into host/port", "SplitHostPort"},
		{"a synchronous read/write channel in memory", "Pipe"},
		{"Create a message/* type MIME document.", "NewMessage"},
	} {
		ans, err := p.Search(ctx, c.query, 5)
		if err != nil {
			t.Fatal(err)
		}
		if ans.Class == "path" || len(ans.Hits) == 0 || ans.Hits[0].Symbol != c.first {
			t.Errorf("%q: class %s, hits %+v; want a description answered by %s", c.query, ans.Class, ans.Hits, c.first)
		}
	}
	ans, err := p.Search(ctx, "store/", 5)
	if err != nil {
		t.Fatal(err)
	}
	if ans.Class != "path" || len(ans.Hits) != 1 || ans.Hits[0].Symbol != "Open" {
		t.Errorf("store/: class %s, hits %+v; want the path listing of store/", ans.Class, ans.Hits)
	}
}
