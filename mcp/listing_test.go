package mcp

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/rlm-dev/rlm"
	"github.com/rlm-dev/rlm/sourcefacts"
)

// TestFilesOutsideTheProjectAreIndistinguishableFromAbsentOnes: with
// writes allowed, apply_patch on a gitignored file, a hidden one or
// .git/config gets the answer a path that does not exist gets (no actual
// hash), and read by id with the file's true hash is refused as for an
// absent file; nothing is written. A conflict on a project file does
// carry its actual hash.
func TestFilesOutsideTheProjectAreIndistinguishableFromAbsentOnes(t *testing.T) {
	f := newFixture(t, rlm.Options{}, Options{AllowWrite: true}, "")
	secret := map[string]string{
		".gitignore":  "secret.go\n",
		"secret.go":   "package sample\n\nconst key = \"s3cret\"\n",
		".env":        "KEY=s3cret\n",
		".git/config": "[core]\n\tbare = false\n",
	}
	for rel, text := range secret {
		f.writeFile(rel, text)
	}
	const zero = "xxh64:0000000000000000:1"
	// mask replaces what differs between two paths' answers.
	mask := func(s, rel, hash string) string {
		return strings.NewReplacer(rel, "PATH", hash, "HASH", zero, "HASH").Replace(s)
	}
	answer := func(tool string, args map[string]any, rel, hash string) string {
		b, _ := json.Marshal(f.fail(tool, args))
		return mask(string(b), rel, hash)
	}
	patch := func(rel, hash string) map[string]any {
		return map[string]any{"path": rel, "expected_hash": hash, "edits": []map[string]any{{"start": 0, "end": 0, "text": "x"}}}
	}
	absentPatch := answer("apply_patch", patch("absent.go", zero), "absent.go", zero)
	absentRead := answer("read", map[string]any{"id": "absent.go:1-1@" + zero}, "absent.go", zero)
	for _, rel := range []string{"secret.go", ".env", ".git/config"} {
		h := sourcefacts.HashBytes([]byte(secret[rel])).String()
		if got := answer("apply_patch", patch(rel, zero), rel, h); got != absentPatch {
			t.Errorf("apply_patch %s with a wrong hash: %s\nwant what an absent file gets: %s", rel, got, absentPatch)
		}
		if got := answer("apply_patch", patch(rel, h), rel, h); got != absentPatch {
			t.Errorf("apply_patch %s with its true hash: %s\nwant what an absent file gets: %s", rel, got, absentPatch)
		}
		if got := answer("read", map[string]any{"id": rel + ":1-1@" + h}, rel, h); got != absentRead {
			t.Errorf("read %s by id with its true hash: %s\nwant what an absent file gets: %s", rel, got, absentRead)
		}
		if f.readFile(rel) != secret[rel] {
			t.Errorf("%s was written", rel)
		}
	}
	h, _ := f.proj.FileHash("server.go")
	e := f.fail("apply_patch", patch("server.go", zero))
	if e.Conflict == nil || e.Conflict.Actual != h || !strings.Contains(e.Message, h) {
		t.Fatalf("a conflict on a project file: %+v; want its actual hash %s", e, h)
	}
}
