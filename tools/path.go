package tools

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/rlm-dev/rlm/internal/textclip"
)

// ErrOutsideRoot is matched (errors.Is) by ResolveInside's refusals. Those
// errors quote only a clipped excerpt of the path the model sent, never
// the root, so a handler may show them to the model (ModelErrorf("%v", err)).
var ErrOutsideRoot = errors.New("path is not inside the tool's root")

// ResolveInside resolves p, a path a model sent, against the directory
// root and returns the absolute path with every symbolic link resolved,
// or an error if that path is not root or below it. p must be relative
// (an absolute path, a volume name or an empty path is refused) and may
// not climb out with ".." (even "a/../../b"); a symbolic link anywhere
// along the resolved path, including in p's existing prefix when the rest
// does not exist yet (a file to be created), must stay inside root too.
// Refusals match ErrOutsideRoot; a root that cannot be resolved is an
// error wrapping the fs error.
//
// The executor knows nothing about paths: keeping a handler's files under
// its root is the handler's job, and this is its helper. The answer is only
// as good as the moment it was computed (a link swapped afterwards is not
// seen); a handler that opens files should prefer os.OpenRoot, which
// enforces containment at every open.
func ResolveInside(root, p string) (string, error) {
	refuse := func(why string) (string, error) {
		return "", fmt.Errorf("%q: %s: %w", textclip.Clean(p, 80), why, ErrOutsideRoot)
	}
	if p == "" || strings.ContainsRune(p, 0) {
		return refuse("empty or has a NUL byte")
	}
	if filepath.IsAbs(p) || filepath.VolumeName(p) != "" || strings.HasPrefix(p, "/") || strings.HasPrefix(p, `\`) {
		return refuse("absolute")
	}
	if !filepath.IsLocal(p) {
		return refuse("escapes with ..")
	}
	base, err := filepath.Abs(root)
	if err != nil {
		return "", fmt.Errorf("tools: root: %w", err)
	}
	if base, err = filepath.EvalSymlinks(base); err != nil {
		return "", fmt.Errorf("tools: root: %w", err)
	}
	full, err := evalExisting(filepath.Join(base, p))
	if err != nil {
		return refuse("cannot be resolved")
	}
	rel, err := filepath.Rel(base, full)
	if err != nil || !filepath.IsLocal(rel) {
		return refuse("leads outside the root through a symbolic link")
	}
	return full, nil
}

// evalExisting resolves the symbolic links of the longest existing prefix
// of path (which is absolute and clean) and appends the rest unchanged.
func evalExisting(path string) (string, error) {
	var rest []string
	for {
		real, err := filepath.EvalSymlinks(path)
		if err == nil {
			return filepath.Join(append([]string{real}, rest...)...), nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
		parent := filepath.Dir(path)
		if parent == path {
			return "", err
		}
		// A dangling symbolic link is not a missing file: following it
		// later (to create the file) could leave the root.
		if _, lerr := os.Lstat(path); lerr == nil {
			return "", fmt.Errorf("dangling symbolic link: %w", fs.ErrNotExist)
		}
		rest = append([]string{filepath.Base(path)}, rest...)
		path = parent
	}
}
