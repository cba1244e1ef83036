package store

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Lister says which files belong to the project. Implement it to bring in
// other languages (together with an Extractor that handles them).
type Lister interface {
	// List returns the project's files under root, as slash-separated paths
	// relative to root, in any order.
	List(ctx context.Context, root string) ([]string, error)
	// Includes reports whether the slash-separated relative path would be
	// listed if it existed (used for hinted paths and harness writes).
	Includes(path string) bool
}

// WalkLister lists the files under the root that Match selects, by
// sourcefacts.Walk's directory rules: it skips directories named testdata
// and node_modules and, unless enabled, hidden files and directories
// (".name", which includes the .rlm database directory) and vendor/.
// Symbolic links to directories are not followed; links to regular files
// are listed; other non-regular files are not. Unlike Walk it lists
// generated files: their facts are real source.
//
// The zero value lists Go files. For every language a multi-language
// extractor knows, use e.g.
//
//	WalkLister{Match: func(p string) bool { return sourcefacts.LanguageForPath(p) != "" }}
type WalkLister struct {
	// Match reports whether a file, by its slash-separated path relative to
	// the root, belongs to the project. nil means names ending in ".go".
	Match         func(path string) bool
	IncludeHidden bool
	IncludeVendor bool
}

func (l WalkLister) skipDir(name string) bool {
	return !l.IncludeHidden && strings.HasPrefix(name, ".") ||
		name == "testdata" || name == "node_modules" ||
		!l.IncludeVendor && name == "vendor"
}

func (l WalkLister) match(p, name string) bool {
	if !l.IncludeHidden && strings.HasPrefix(name, ".") {
		return false
	}
	if l.Match == nil {
		return strings.HasSuffix(name, ".go")
	}
	return l.Match(p)
}

// Includes implements Lister.
func (l WalkLister) Includes(p string) bool {
	dir, name := "", p
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		dir, name = p[:i], p[i+1:]
	}
	if !l.match(p, name) {
		return false
	}
	if dir != "" {
		for seg := range strings.SplitSeq(dir, "/") {
			if l.skipDir(seg) {
				return false
			}
		}
	}
	return true
}

// List implements Lister.
func (l WalkLister) List(ctx context.Context, root string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if p == root {
			return nil
		}
		name := d.Name()
		if d.IsDir() {
			if l.skipDir(name) {
				return filepath.SkipDir
			}
			return nil
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if !l.match(rel, name) {
			return nil
		}
		switch t := d.Type(); {
		case t.IsRegular():
		case t&fs.ModeSymlink != 0:
			if fi, err := os.Stat(p); err != nil || !fi.Mode().IsRegular() {
				return nil
			}
		default:
			return nil
		}
		out = append(out, rel)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("store: list %s: %w", root, err)
	}
	slices.Sort(out)
	return out, nil
}
