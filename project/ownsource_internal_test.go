package project

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rlm-dev/rlm/sourcefacts"
)

// TestOwnLinesComeOnlyFromTheBytesTheFactsWereExtractedFrom: the source
// a definition is indexed by is read back from the tree only while the
// file still hashes to the facts' content hash; bytes written since
// (an edit not yet extracted) give none, so no word of other bytes is
// indexed as the facts'.
func TestOwnLinesComeOnlyFromTheBytesTheFactsWereExtractedFrom(t *testing.T) {
	root := t.TempDir()
	extracted := []byte("def fold(text):\n    # wrap long lines\n    return text\n")
	facts := &sourcefacts.FileFacts{
		Provenance: sourcefacts.Provenance{Path: "m.py", Hash: sourcefacts.HashBytes(extracted)},
		Symbols:    []sourcefacts.Symbol{{Name: "fold", Kind: sourcefacts.KindFunction, Range: sourcefacts.Range{StartLine: 1, EndLine: 3}}},
	}
	read := rootSource(root)
	for _, tc := range []struct {
		name  string
		bytes []byte
		want  []string
	}{
		{"the extracted bytes", extracted, []string{"def fold(text):\n# wrap long lines\nreturn text"}},
		{"bytes edited since", []byte("def fold(text):\n    # strip the margins\n    return text\n"), []string{""}},
	} {
		if err := os.WriteFile(filepath.Join(root, "m.py"), tc.bytes, 0o644); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tc.want, ownLines(facts, read(facts))); diff != "" {
			t.Errorf("%s: own lines (-want +got):\n%s", tc.name, diff)
		}
	}
}
