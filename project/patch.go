package project

import (
	"bufio"
	"context"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/bluekeyes/go-gitdiff/gitdiff"

	"github.com/rlm-dev/rlm/internal/textclip"
	"github.com/rlm-dev/rlm/sourcefacts"
	"github.com/rlm-dev/rlm/sourcefacts/store"
)

// ApplyPatch applies patch to the project file at the slash path rel if
// its bytes hash to expected, as store.Store.ApplyPatch does (atomic,
// journaled, the file left stale until the store is flushed), and returns
// the new bytes' hash. Only a file Listed includes can be patched: any
// other path, existing or not, gets the *store.ConflictError of a missing
// file (Missing, no Actual hash), so that neither its existence nor its
// hash is revealed. Before the file is touched the patch is checked:
//
//   - a unified diff must name rel (or a/rel, b/rel) in every file header
//     line (diff --git, ---, +++) and must not be a binary patch;
//   - byte edits of a file whose bytes are valid UTF-8 must start and end
//     on rune boundaries.
//
// Those refusals are *store.PatchError (errors.Is store.ErrBadPatch).
// Other errors are the store's.
func (p *Project) ApplyPatch(ctx context.Context, rel string, expected sourcefacts.ContentHash, patch store.Patch) (sourcefacts.ContentHash, error) {
	if !p.Listed(rel) {
		return sourcefacts.ContentHash{}, &store.ConflictError{Path: rel, Expected: expected, Missing: true}
	}
	if len(patch.UnifiedDiff) > 0 {
		if reason := checkDiffNames(rel, string(patch.UnifiedDiff)); reason != "" {
			return sourcefacts.ContentHash{}, &store.PatchError{Path: rel, Reason: reason}
		}
	}
	if len(patch.Edits) > 0 {
		// The bytes the edits would apply to, if the file still has the
		// expected ones (otherwise the store reports the conflict).
		if src, err := p.readProjectFile(rel); err == nil && sourcefacts.HashBytes(src) == expected {
			if reason := checkRuneBoundaries(src, patch.Edits); reason != "" {
				return sourcefacts.ContentHash{}, &store.PatchError{Path: rel, Reason: reason}
			}
		}
	}
	return p.st.ApplyPatch(ctx, rel, expected, patch)
}

// checkDiffNames returns why diff may not be applied to rel ("" if it may):
// a header names another file, or it is a binary patch. Only the lines
// before the first hunk are headers.
func checkDiffNames(rel, diff string) string {
	files, _, err := gitdiff.Parse(strings.NewReader(diff))
	if err == nil && len(files) == 1 && files[0].IsBinary {
		return "binary patches are not applied"
	}
	sc := bufio.NewScanner(strings.NewReader(diff))
	sc.Buffer(nil, len(diff)+1)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "@@") {
			break
		}
		var names []string
		switch {
		case strings.HasPrefix(line, "diff --git "):
			a, b, ok := splitGitHeader(line[len("diff --git "):])
			if !ok {
				return fmt.Sprintf("the header %q does not name %s", textclip.Clean(line, 120), rel)
			}
			names = []string{a, b}
		case strings.HasPrefix(line, "--- "), strings.HasPrefix(line, "+++ "):
			names = []string{headerName(line[4:])}
		default:
			continue
		}
		for _, n := range names {
			if n != rel && n != "a/"+rel && n != "b/"+rel {
				return fmt.Sprintf("the header %q names another file than %s", textclip.Clean(line, 120), rel)
			}
		}
	}
	return ""
}

// headerName is the file name of a ---/+++ line's rest: a C-quoted name
// as git writes it, or the text up to a tab (before a timestamp).
func headerName(s string) string {
	if strings.HasPrefix(s, `"`) {
		if n, err := strconv.Unquote(s); err == nil {
			return n
		}
		return s
	}
	name, _, _ := strings.Cut(s, "\t")
	return strings.TrimRight(name, "\r")
}

// splitGitHeader splits the names of a "diff --git A B" line: both quoted,
// or both unquoted and of equal length (git's rule for names with
// spaces), which is all an in-place change of one file has.
func splitGitHeader(s string) (a, b string, ok bool) {
	s = strings.TrimRight(s, "\r")
	if strings.HasPrefix(s, `"`) {
		first, err := strconv.QuotedPrefix(s)
		if err != nil || len(s) <= len(first)+1 || s[len(first)] != ' ' {
			return "", "", false
		}
		a, err1 := strconv.Unquote(first)
		b, err2 := strconv.Unquote(s[len(first)+1:])
		return a, b, err1 == nil && err2 == nil
	}
	if len(s)%2 == 0 || s[len(s)/2] != ' ' {
		return "", "", false
	}
	return s[:len(s)/2], s[len(s)/2+1:], true
}

// checkRuneBoundaries returns why edits may not apply to src ("" if they
// may): src is valid UTF-8 and an edit starts or ends inside a rune.
// Offsets out of range are left to the store.
func checkRuneBoundaries(src []byte, edits []store.Edit) string {
	if !utf8.Valid(src) {
		return ""
	}
	inside := func(i int) bool { return i > 0 && i < len(src) && !utf8.RuneStart(src[i]) }
	for _, e := range edits {
		if inside(e.Start) || inside(e.End) {
			return fmt.Sprintf("edit [%d,%d) splits a UTF-8 sequence: offsets must be on character boundaries", e.Start, e.End)
		}
	}
	return ""
}
