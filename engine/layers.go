package engine

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
)

// Layer is one source of rule files: every *.pl file at any depth of FS.
// Directories named testdata or starting with "." or "_" are skipped, and
// so are files starting with "." (editor lock and backup files).
type Layer struct {
	FS    fs.FS
	Label string // display prefix for paths in messages, e.g. "rules" or a directory
}

// ErrNoRuleFiles is matched (errors.Is) by a *RulesDirError: a rules
// directory that is missing, is not a directory, or holds no .pl file.
var ErrNoRuleFiles = errors.New("engine: no rule files")

// RulesDirError reports a rules directory that offers no rule files. It
// matches ErrNoRuleFiles and, when the directory could not be read, the
// error of the file system (e.g. fs.ErrNotExist).
type RulesDirError struct {
	Dir     string // the directory as given
	Problem string // e.g. "does not exist", "is not a directory", "holds no .pl files"
	Err     error  // the file system's error, if any
}

func (e *RulesDirError) Error() string {
	msg := fmt.Sprintf("rules directory %s %s", e.Dir, e.Problem)
	if e.Err != nil {
		msg += ": " + e.Err.Error()
	}
	return msg
}

func (e *RulesDirError) Unwrap() []error {
	if e.Err == nil {
		return []error{ErrNoRuleFiles}
	}
	return []error{ErrNoRuleFiles, e.Err}
}

// DirLayer returns the layer of the rule files under dir, labelled dir.
// The directory must exist, be a directory and hold at least one .pl file
// at some depth (after the skips of Layer); otherwise the error is a
// *RulesDirError. Symbolic links to directories are not followed, and a
// file is read only if it is a regular file of at most MaxRuleFileBytes.
func DirLayer(dir string) (Layer, error) {
	st, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return Layer{}, &RulesDirError{Dir: dir, Problem: "does not exist", Err: err}
	case err != nil:
		return Layer{}, &RulesDirError{Dir: dir, Problem: "cannot be read", Err: err}
	case !st.IsDir():
		return Layer{}, &RulesDirError{Dir: dir, Problem: "is not a directory"}
	}
	l := Layer{FS: os.DirFS(dir), Label: dir}
	n := 0
	err = walkLayer(l, func(string) error {
		n++
		return fs.SkipAll
	})
	if err != nil {
		return Layer{}, &RulesDirError{Dir: dir, Problem: "cannot be read", Err: err}
	}
	if n == 0 {
		return Layer{}, &RulesDirError{Dir: dir, Problem: "holds no .pl files"}
	}
	return l, nil
}

// MaxLayerEntries bounds the directory entries one layer's walk visits.
const MaxLayerEntries = 20_000

// walkLayer calls fn with the slash path of every .pl file of l, in
// lexical order. fn may return fs.SkipAll to stop.
func walkLayer(l Layer, fn func(p string) error) error {
	seen := 0
	return fs.WalkDir(l.FS, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if seen++; seen > MaxLayerEntries {
			return fmt.Errorf("over %d entries (is this a rules directory?)", MaxLayerEntries)
		}
		name := d.Name()
		if d.IsDir() {
			if p != "." && (name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return fs.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".pl") || strings.HasPrefix(name, ".") {
			return nil
		}
		if d.Type()&fs.ModeSymlink != 0 {
			// A link to a directory is not followed; a link to a file is
			// read like the file (readLayerFile checks what it is).
			if st, err := fs.Stat(l.FS, p); err == nil && st.IsDir() {
				return nil
			}
		}
		return fn(p)
	})
}

// readLayerFile reads a regular file of at most MaxRuleFileBytes; FIFOs,
// devices and oversized files are refused without reading them.
func readLayerFile(fsys fs.FS, p string) ([]byte, error) {
	st, err := fs.Stat(fsys, p)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("not a regular file (%s)", st.Mode().Type())
	}
	if st.Size() > MaxRuleFileBytes {
		return nil, fmt.Errorf("%d bytes, over the %d-byte limit for a rule file", st.Size(), MaxRuleFileBytes)
	}
	f, err := fsys.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, MaxRuleFileBytes+1))
	if err == nil && len(b) > MaxRuleFileBytes {
		return nil, fmt.Errorf("over the %d-byte limit for a rule file", MaxRuleFileBytes)
	}
	return b, err
}

// layers returns the effective layers: the Rules shorthand, Layers, then
// the UserDir shorthand.
func (o *Options) layers() ([]Layer, error) {
	var ls []Layer
	if o.Rules != nil {
		ls = append(ls, Layer{FS: o.Rules, Label: o.RulesLabel})
	}
	ls = append(ls, o.Layers...)
	if o.UserDir != "" {
		l, err := DirLayer(o.UserDir)
		if err != nil {
			return nil, &LoadError{File: o.UserDir, Err: err}
		}
		ls = append(ls, l)
	}
	return ls, nil
}

// collectSources reads the layers and applies the override rules: a file
// replaces the earlier layers' file with the same relative path or, at the
// top level of its layer, the one earlier file with the same base name.
func (e *Engine) collectSources() error {
	var files []*Source // current files, each under the relative path it first had
	var keys []string
	for li, l := range e.layers {
		var layer []Source
		err := walkLayer(l, func(p string) error {
			b, err := readLayerFile(l.FS, p)
			if err != nil {
				return &LoadError{File: path.Join(l.Label, p), Reason: "cannot read", Err: err}
			}
			layer = append(layer, Source{Name: p, Layer: li, Origin: l.Label, Path: path.Join(l.Label, p), Text: strings.TrimPrefix(string(b), "\uFEFF")})
			return nil
		})
		if err != nil {
			var le *LoadError
			if errors.As(err, &le) {
				return le
			}
			return &LoadError{File: l.Label, Reason: "cannot list rule files", Err: err}
		}
		replacedBy := map[int]Source{}
		var added []Source
		for _, src := range layer {
			target, err := overrideTarget(files[:len(keys)], keys, src)
			if err != nil {
				return err
			}
			if target < 0 {
				added = append(added, src)
				continue
			}
			if other, dup := replacedBy[target]; dup {
				return &LoadError{File: src.Path, Reason: fmt.Sprintf("replaces %s, which %s also replaces", files[target].Path, other.Path)}
			}
			replacedBy[target] = src
		}
		for i, src := range replacedBy {
			*files[i] = src
		}
		for _, src := range added {
			files = append(files, &src)
			keys = append(keys, src.Name)
		}
	}
	sort.Slice(files, func(i, j int) bool {
		if files[i].Layer != files[j].Layer {
			return files[i].Layer < files[j].Layer
		}
		return files[i].Name < files[j].Name
	})
	for _, f := range files {
		if strings.HasSuffix(f.Name, "_test.pl") {
			e.tests = append(e.tests, *f)
		} else {
			e.sources = append(e.sources, *f)
		}
	}
	return nil
}

// overrideTarget returns the index of the earlier file src replaces, -1
// if it replaces none. keys[i] is the relative path files[i] first had.
func overrideTarget(files []*Source, keys []string, src Source) (int, error) {
	for i := range files {
		if keys[i] == src.Name || files[i].Name == src.Name {
			return i, nil
		}
	}
	// Only a top-level file replaces by base name: a Name with a folder
	// never equals a base name.
	var same []int
	for i := range files {
		if path.Base(keys[i]) == src.Name {
			same = append(same, i)
		}
	}
	switch len(same) {
	case 0:
		return -1, nil
	case 1:
		return same[0], nil
	}
	return -1, &LoadError{File: src.Path, Reason: fmt.Sprintf(
		"ambiguous override: %s and %s both have the base name %s; put the file at the relative path of the one it replaces",
		files[same[0]].Path, files[same[1]].Path, src.Name)}
}

// ConcernLayers are the layers of one concern folder of the rules (e.g.
// "prompt", "tms"): defaults (the concern's default rule files, labelled
// "rules/"+concern), then the concern folder of rulesDir if it has one. A
// rulesDir that is not a usable rules directory is a *LoadError; ""
// adds nothing.
func ConcernLayers(defaults fs.FS, concern, rulesDir string) ([]Layer, error) {
	layers := []Layer{{FS: defaults, Label: "rules/" + concern}}
	if rulesDir == "" {
		return layers, nil
	}
	if _, err := DirLayer(rulesDir); err != nil {
		return nil, &LoadError{File: rulesDir, Err: err}
	}
	dir := filepath.Join(rulesDir, concern)
	if st, err := os.Stat(dir); err == nil && st.IsDir() {
		l, err := DirLayer(dir)
		if err != nil {
			return nil, &LoadError{File: dir, Err: err}
		}
		layers = append(layers, l)
	}
	return layers, nil
}
