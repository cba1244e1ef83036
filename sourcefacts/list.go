package sourcefacts

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
)

// Lister says which files under a root belong to a project. It is the one
// walker of the module: Walk lists with it, and the store (package
// sourcefacts/store) takes it as its Lister. Its skip policy:
//
//   - Always skipped directories: version-control metadata (.git, .hg,
//     .svn, .bzr, .jj), rlm's own knowledge base (.rlm), node_modules,
//     __pycache__ and testdata.
//   - Hidden files and directories (name starting with "."), unless
//     IncludeHidden.
//   - Vendored dependencies (directories named vendor), unless
//     IncludeVendor.
//   - Python virtual environments (a directory holding pyvenv.cfg or a
//     conda-meta directory) and build output (a directory named target or
//     build that holds CACHEDIR.TAG or CMakeCache.txt, or whose parent holds
//     a build manifest: Cargo.toml, pom.xml, build.gradle,
//     build.gradle.kts, build.sbt, setup.py, pyproject.toml,
//     CMakeLists.txt, meson.build or package.json), unless
//     IncludeBuildDirs. A directory merely named build or target (Go's
//     go/build) is listed.
//   - Files and directories excluded by ignore files, unless
//     IncludeIgnored: .git/info/exclude at the root, then in every listed
//     directory its .gitignore and then its .ignore, each overriding the
//     ones before it (deeper files override shallower ones). The patterns
//     have git's semantics (negation with "!", patterns anchored by a "/",
//     directory-only patterns ending in "/", patterns relative to the
//     ignore file's directory; matched by go-git's gitignore package). As
//     in git, a file inside an excluded directory cannot be re-included.
//     Ignore files are read whether or not the root is a git work tree;
//     ignore files above the root, core.excludesFile and the global
//     excludes are not read. An ignore file that is not a regular file
//     (a symbolic link, say), cannot be read, or is larger than
//     MaxIgnoreFileBytes is treated as absent, as git does.
//   - Files Match rejects. Without Match, a file is listed when its
//     extension is of a supported language (LanguageForPath; .h headers
//     when C or C++ is among Languages), or when it has no extension and
//     starts with a #! line or carries a mode line (see Detect; the
//     first SniffBytes are read): a script of a supported language, or
//     of another language, which the extractor then records as skipped
//     ("no language: a bash script") so that status can say so. Files
//     with other extensions (README.md, data.json) are not part of the
//     project.
//
// Symbolic links to directories are not followed; symbolic links to
// regular files are listed; other non-regular files (FIFOs, sockets,
// devices) are not.
//
// A path under the root that cannot be walked does not stop the walk: a
// directory that cannot be opened or read (permission denied, removed
// while the walk runs, a name too long for the system), a file the policy
// selects that is not a regular file (a FIFO named main.go) and a
// symbolic link that cannot be resolved for a reason other than a missing
// target (a loop) are each recorded as a PathFault, and the rest of the
// tree is listed (see List and WalkError).
//
// The zero value lists every file of a supported language with the
// default policy. A Lister is a value; its methods are safe for
// concurrent use if Match is. List reads directories on up to GOMAXPROCS
// goroutines, but calls Match from one at a time.
type Lister struct {
	// Match reports whether a file, by its slash-separated path relative
	// to the root, belongs to the project. nil means a file of a supported
	// language, by extension or, without one, by content (see Lister).
	Match func(path string) bool
	// Languages restricts the default selection (Match nil) to these
	// languages (the Lang* constants). Empty means every supported
	// language, and scripts of other languages too (to be recorded as
	// skipped); with Languages set, only scripts of those languages are
	// listed.
	Languages []string
	// IncludeHidden lists hidden files and directories (".name"), except
	// the always-skipped .git, .hg, .svn, .bzr, .jj and .rlm.
	IncludeHidden bool
	// IncludeVendor lists vendor/ directories.
	IncludeVendor bool
	// IncludeBuildDirs lists build output directories and Python virtual
	// environments (see Lister).
	IncludeBuildDirs bool
	// IncludeIgnored lists files and directories that ignore files
	// exclude; the rest of the policy still applies.
	IncludeIgnored bool
}

// MaxIgnoreFileBytes is the largest ignore file (.gitignore, .ignore,
// .git/info/exclude) Lister reads, in bytes; a larger one is treated as
// absent.
const MaxIgnoreFileBytes = 1 << 20

// alwaysSkipped are the directory names Lister never enters.
var alwaysSkipped = map[string]bool{
	// version control, and rlm's own knowledge base
	".git": true, ".hg": true, ".svn": true, ".bzr": true, ".jj": true, ".rlm": true,
	// dependencies, caches, test fixtures
	"node_modules": true, "__pycache__": true, "testdata": true,
}

// ignoreFiles are the per-directory ignore files, in increasing priority.
var ignoreFiles = []string{".gitignore", ".ignore"}

// PathFault is a path under the root that the walk could not list: a
// directory it could not open or read, a selected file that is not a
// regular file, or a symbolic link it could not resolve.
type PathFault struct {
	// Path is slash-separated and relative to the root.
	Path string
	// Err is the cause: an *fs.PathError (its Err a syscall.Errno such as
	// EACCES, ENOENT or ENAMETOOLONG), ErrSpecialFile, ErrNameNotUTF8, or
	// the error of resolving a symbolic link.
	Err error
}

// Reason is Err's text without the absolute path: "open: permission
// denied", "not a regular file: named pipe".
func (f PathFault) Reason() string {
	var pe *fs.PathError
	if errors.As(f.Err, &pe) {
		return pe.Op + ": " + pe.Err.Error()
	}
	return f.Err.Error()
}

// ErrSpecialFile is the cause of a PathFault for a file the policy selects
// (by its name) that is a FIFO, socket or device.
var ErrSpecialFile = errors.New("not a regular file")

// ErrNameNotUTF8 is the cause of a PathFault for a file the policy selects
// or a directory it would enter whose name is not valid UTF-8: paths are
// text in the knowledge base, its answers and the ids built from them
// (fs.ValidPath), and such a name would be changed on the way, so the
// file is reported instead of indexed under another name or dropped.
var ErrNameNotUTF8 = errors.New("name is not valid UTF-8")

// WalkError is the error List returns, together with every path it could
// list, when some paths under the root could not be walked. Faults are
// sorted by Path. Match it with errors.As.
type WalkError struct {
	Faults []PathFault
}

func (e *WalkError) Error() string {
	f := e.Faults[0]
	if len(e.Faults) == 1 {
		return fmt.Sprintf("sourcefacts: list: %s could not be walked: %s", f.Path, f.Reason())
	}
	return fmt.Sprintf("sourcefacts: list: %d paths could not be walked, the first %s: %s", len(e.Faults), f.Path, f.Reason())
}

// Unwrap returns the faults' causes.
func (e *WalkError) Unwrap() []error {
	out := make([]error, len(e.Faults))
	for i, f := range e.Faults {
		out[i] = f.Err
	}
	return out
}

// List returns the project's files under root (a directory, or a symbolic
// link to one), as slash-separated paths relative to root, sorted. It
// fails, returning no paths, if root is not a directory or cannot be read,
// or ctx is done; the error wraps the cause (an *fs.PathError, or
// ctx.Err()). When paths under the root could not be walked (see
// PathFault) it returns the paths it listed and a *WalkError naming the
// others.
func (l Lister) List(ctx context.Context, root string) ([]string, error) {
	info, err := os.Stat(root)
	if err != nil {
		return nil, fmt.Errorf("sourcefacts: list: %w", err)
	}
	if !info.IsDir() {
		return nil, fmt.Errorf("sourcefacts: list: %s is not a directory", root)
	}
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return nil, fmt.Errorf("sourcefacts: list: %w", err)
	}
	if l.Match != nil {
		// Directories are listed on several goroutines: Match is called
		// from one at a time.
		var mu sync.Mutex
		match := l.Match
		l.Match = func(p string) bool {
			mu.Lock()
			defer mu.Unlock()
			return match(p)
		}
	}
	w := walk{realRoot: realRoot, sem: make(chan struct{}, runtime.GOMAXPROCS(0)-1)}
	err = l.listDir(ctx, &w, root, nil, l.rootRules(root), allNames)
	w.wg.Wait()
	if err == nil {
		err = ctx.Err() // a directory listed on another goroutine stopped
	}
	if err != nil {
		return nil, fmt.Errorf("sourcefacts: list: %w", err)
	}
	slices.Sort(w.out)
	if len(w.faults) > 0 {
		slices.SortFunc(w.faults, func(a, b PathFault) int { return strings.Compare(a.Path, b.Path) })
		return w.out, &WalkError{Faults: w.faults}
	}
	return w.out, nil
}

// walk is one List call's state: the root with its symbolic links
// resolved, the files listed and the paths that could not be walked
// (guarded by mu), the goroutines listing directories besides the
// caller's (at most cap(sem) at once, waited for with wg) and the buffers
// they read directories through.
type walk struct {
	realRoot string
	mu       sync.Mutex
	out      []string
	faults   []PathFault
	sem      chan struct{}
	wg       sync.WaitGroup
	bufs     sync.Pool // *[]byte: the buffers directories are read through
}

// add appends one directory's files and faults.
func (w *walk) add(out []string, faults []PathFault) {
	w.mu.Lock()
	w.out = append(w.out, out...)
	w.faults = append(w.faults, faults...)
	w.mu.Unlock()
}

// listDir adds to w the listed files of directory abs, whose path
// components below the root are comps, and its faults; rules are the
// ignore patterns of its ancestors, parent the names its parent
// directory may hold. A subdirectory is listed on a goroutine of its own
// while w has one to spare, else in turn. It fails only when ctx is done
// or the root itself cannot be read.
//
// A directory's entries say which names it may hold (namesOf): the
// probes for its ignore files, and whether it is a virtual environment
// or build output, are made only for names it holds — made by listDir of
// the directory itself, once its entries are read, rather than by its
// parent.
func (l Lister) listDir(ctx context.Context, w *walk, abs string, comps []string, rules []gitignore.Pattern, parent dirNames) error {
	var (
		out    []string
		faults []PathFault
	)
	defer func() { w.add(out, faults) }()
	bp, _ := w.bufs.Get().(*[]byte)
	if bp == nil {
		bp = new([]byte)
	}
	entries, buf, err := readDirEntries(abs, *bp)
	*bp = buf
	w.bufs.Put(bp)
	names := allNames
	if err == nil {
		names = namesOf(entries)
	} else if len(comps) == 0 {
		return err
	}
	if len(comps) > 0 && l.skipByContent(abs, comps[len(comps)-1], names, parent) {
		return nil
	}
	if err != nil {
		// The entries read before the error are still listed.
		faults = append(faults, PathFault{Path: strings.Join(comps, "/"), Err: err})
	}
	rules = l.withDirRules(rules, abs, comps, names)
	for _, e := range entries {
		if err := ctx.Err(); err != nil {
			return err
		}
		name := e.name
		child := append(slices.Clip(comps), name)
		if e.IsDir() {
			childAbs := filepath.Join(abs, name)
			if l.skipByName(child, rules) {
				continue
			}
			if !utf8.ValidString(name) {
				faults = append(faults, PathFault{Path: strings.Join(child, "/"), Err: ErrNameNotUTF8})
				continue
			}
			select {
			case w.sem <- struct{}{}:
				w.wg.Add(1)
				go func() {
					defer w.wg.Done()
					defer func() { <-w.sem }()
					l.listDir(ctx, w, childAbs, child, rules, names) // only ctx's error: List returns it
				}()
			default:
				if err := l.listDir(ctx, w, childAbs, child, rules, names); err != nil {
					return err
				}
			}
			continue
		}
		rel := strings.Join(child, "/")
		childAbs := filepath.Join(abs, name)
		if l.skipFile(childAbs, rel, child, rules) {
			continue
		}
		switch t := e.typ; {
		case t.IsRegular():
		case t&fs.ModeSymlink != 0:
			ok, fault := linkToFileInside(w.realRoot, childAbs)
			if fault != nil {
				faults = append(faults, PathFault{Path: rel, Err: fault})
			}
			if !ok {
				continue
			}
		default:
			faults = append(faults, PathFault{Path: rel, Err: fmt.Errorf("%w: %s", ErrSpecialFile, specialKind(t))})
			continue
		}
		if !utf8.ValidString(name) {
			faults = append(faults, PathFault{Path: rel, Err: ErrNameNotUTF8})
			continue
		}
		out = append(out, rel)
	}
	return nil
}

// specialKind names the kind of a non-regular, non-link file mode.
func specialKind(t fs.FileMode) string {
	switch {
	case t&fs.ModeNamedPipe != 0:
		return "named pipe"
	case t&fs.ModeSocket != 0:
		return "socket"
	case t&fs.ModeDevice != 0:
		return "device"
	}
	return t.String()
}

// Includes reports whether List(ctx, root) would list the slash-separated
// relative path p if p existed (used for hinted paths and harness
// writes). It applies the same policy along p: every ancestor directory
// must be listable (an existing ancestor that is not a directory, such as
// a symbolic link, makes it false), the ignore files of root and of every
// ancestor apply, and if p exists it must be a regular file or a symbolic
// link to one. A path that is not a clean relative path (fs.ValidPath) is
// never included.
func (l Lister) Includes(root, p string) bool {
	if p == "." || !fs.ValidPath(p) {
		return false
	}
	comps := strings.Split(p, "/")
	rules := l.withDirRules(l.rootRules(root), root, nil, allNames)
	dir := root
	for i := range len(comps) - 1 {
		dir = filepath.Join(dir, comps[i])
		if fi, err := os.Lstat(dir); err == nil && !fi.IsDir() {
			return false
		}
		if l.skipByName(comps[:i+1], rules) || l.skipByContent(dir, comps[i], allNames, allNames) {
			return false
		}
		rules = l.withDirRules(rules, dir, comps[:i+1], allNames)
	}
	if l.skipFile(filepath.Join(root, filepath.FromSlash(p)), p, comps, rules) {
		return false
	}
	fi, err := os.Lstat(filepath.Join(root, filepath.FromSlash(p)))
	switch {
	case err != nil:
		return true // absent (or not statable): it would be listed if it existed
	case fi.Mode().IsRegular():
		return true
	case fi.Mode()&fs.ModeSymlink != 0:
		realRoot, err := filepath.EvalSymlinks(root)
		if err != nil {
			return false
		}
		ok, _ := linkToFileInside(realRoot, filepath.Join(root, filepath.FromSlash(p)))
		return ok
	}
	return false
}

// linkToFileInside reports whether the symbolic link at abs leads, through
// every link on the way, to a regular file under realRoot (a root with its
// own links resolved). A link out of the tree (to ~/.aws/credentials, to
// /etc) is not the project's file: listing it would put the bytes of a
// file outside the root into the index and its answers. A link that
// cannot be resolved for a reason other than a missing target (a loop, a
// directory on the way that cannot be searched) returns that reason as
// fault.
func linkToFileInside(realRoot, abs string) (ok bool, fault error) {
	target, err := filepath.EvalSymlinks(abs)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return false, nil
		}
		return false, err
	}
	if fi, err := os.Stat(target); err != nil || !fi.Mode().IsRegular() {
		return false, nil
	}
	rel, err := filepath.Rel(realRoot, target)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel), nil
}

// skipByName reports whether the directory with path components comps
// below the root is skipped by its name or its ancestors' ignore rules.
func (l Lister) skipByName(comps []string, rules []gitignore.Pattern) bool {
	name := comps[len(comps)-1]
	switch {
	case alwaysSkipped[name],
		!l.IncludeHidden && strings.HasPrefix(name, "."),
		!l.IncludeVendor && name == "vendor":
		return true
	}
	return gitignore.NewMatcher(rules).Match(comps, true)
}

// skipByContent reports whether the directory abs, named name, is skipped
// as a virtual environment or build output; names are the names it may
// hold, parent those its parent may hold.
func (l Lister) skipByContent(abs, name string, names, parent dirNames) bool {
	return !l.IncludeBuildDirs && (isVirtualEnv(abs, names) || isBuildOutput(abs, name, names, parent))
}

// skipFile reports whether the file at slash path rel (components comps,
// abs as passed to os.Open) is skipped given its directories' ignore
// rules.
func (l Lister) skipFile(abs, rel string, comps []string, rules []gitignore.Pattern) bool {
	name := comps[len(comps)-1]
	if !l.IncludeHidden && strings.HasPrefix(name, ".") {
		return true
	}
	if gitignore.NewMatcher(rules).Match(comps, false) {
		return true
	}
	if l.Match != nil {
		return !l.Match(rel)
	}
	return !l.selects(abs, rel)
}

// selects is the default Match: a file of a supported language among
// l.Languages, by extension, or a script without one (see Lister).
func (l Lister) selects(abs, rel string) bool {
	wants := func(lang string) bool { return len(l.Languages) == 0 || slices.Contains(l.Languages, lang) }
	if path.Ext(path.Base(rel)) != "" {
		lang := LanguageForPath(rel)
		return lang != "" && wants(lang) || lang == LangC && wants(LangCPP)
	}
	head, err := readHead(abs, SniffBytes)
	if err != nil {
		return false
	}
	d := detectScript(head)
	if d.Language != "" {
		return wants(d.Language)
	}
	return d.Skip != "" && len(l.Languages) == 0
}

// readHead reads up to n bytes from the start of the regular file at abs
// (following a symbolic link).
func readHead(abs string, n int) ([]byte, error) {
	// Stat before opening: opening a FIFO would block.
	if fi, err := os.Stat(abs); err != nil || !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("sourcefacts: %s is not a regular file", abs)
	}
	f, err := os.Open(abs)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b := make([]byte, n)
	m, err := io.ReadFull(f, b)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return nil, err
	}
	return b[:m], nil
}

// rootRules returns the root's .git/info/exclude patterns, or none with
// IncludeIgnored.
func (l Lister) rootRules(root string) []gitignore.Pattern {
	if l.IncludeIgnored {
		return nil
	}
	return readPatterns(filepath.Join(root, ".git", "info", "exclude"), nil)
}

// withDirRules returns rules followed by the patterns of directory abs's
// ignore files (components comps below the root; names the names it may
// hold), in a new slice when there are any, so that sibling directories
// never share appended rules.
func (l Lister) withDirRules(rules []gitignore.Pattern, abs string, comps []string, names dirNames) []gitignore.Pattern {
	if l.IncludeIgnored {
		return rules
	}
	for _, name := range ignoreFiles {
		if !names.may(name) {
			continue
		}
		if ps := readPatterns(filepath.Join(abs, name), comps); len(ps) > 0 {
			rules = slices.Concat(rules, ps)
		}
	}
	return rules
}

// readPatterns parses the ignore file at path, whose patterns are relative
// to the directory with components domain. A missing, unreadable,
// non-regular or oversized file has none.
func readPatterns(path string, domain []string) []gitignore.Pattern {
	if fi, err := os.Lstat(path); err != nil || !fi.Mode().IsRegular() {
		return nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, MaxIgnoreFileBytes+1))
	if err != nil || len(b) > MaxIgnoreFileBytes {
		return nil
	}
	var ps []gitignore.Pattern
	for line := range strings.SplitSeq(strings.TrimPrefix(string(b), "\uFEFF"), "\n") {
		line = strings.TrimSuffix(line, "\r")
		if strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "" {
			continue
		}
		ps = append(ps, gitignore.ParsePattern(line, domain))
	}
	return ps
}

// buildManifests are files whose presence in a directory makes its target/
// or build/ subdirectory build output.
var buildManifests = []string{"Cargo.toml", "pom.xml", "build.gradle", "build.gradle.kts", "build.sbt",
	"setup.py", "pyproject.toml", "CMakeLists.txt", "meson.build", "package.json"}

func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

// isVirtualEnv reports whether directory dir, which may hold names, is a
// Python virtual environment: it holds pyvenv.cfg (venv, virtualenv) or a
// conda-meta directory (conda).
func isVirtualEnv(dir string, names dirNames) bool {
	if names.may("pyvenv.cfg") && exists(filepath.Join(dir, "pyvenv.cfg")) {
		return true
	}
	if !names.may("conda-meta") {
		return false
	}
	fi, err := os.Lstat(filepath.Join(dir, "conda-meta"))
	return err == nil && fi.IsDir()
}

// isBuildOutput reports whether directory dir, named name, is build
// output (see Lister); names are the names it may hold, parent those its
// parent may hold.
func isBuildOutput(dir, name string, names, parent dirNames) bool {
	if name != "target" && name != "build" {
		return false
	}
	for _, m := range []string{"CACHEDIR.TAG", "CMakeCache.txt"} {
		if names.may(m) && exists(filepath.Join(dir, m)) {
			return true
		}
	}
	up := filepath.Dir(dir)
	for _, m := range buildManifests {
		if parent.may(m) && exists(filepath.Join(up, m)) {
			return true
		}
	}
	return false
}
