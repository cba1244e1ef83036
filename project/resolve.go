package project

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/rlm-dev/rlm/retrieval"
	"github.com/rlm-dev/rlm/sourcefacts"
	"github.com/rlm-dev/rlm/sourcefacts/store"
)

// Which files' documents a build or update writes. A file's documents
// depend on its own facts and on what its calls resolve to across the
// tree (Documents). A build reads every file's facts and resolves all of
// them. An update reads the facts of the files whose state changed (new,
// edited, gone: stateVersion) and of the files whose resolution looked up
// something the changed files define or defined (scopeStore's lookups,
// sourcefacts.ScopeKey), and resolves only those again: a file none of
// whose lookups answers differently resolves as it did (see
// sourcefacts.ScopeTable). Each resolved file's documents are written if
// their version (fileVersion) differs from the one recorded.

// fileDocs are the documents of one file and their version ("": the
// version recorded in the index, nothing to write).
type fileDocs struct {
	path, version string
	docs          []retrieval.Document
}

// indexPlan is what a build or update writes: the documents produce
// passes on, and the removal of those of the files in gone; changed
// counts the files whose facts changed (new, edited or gone), resolved
// the files whose calls were resolved, steps how many times produce
// calls emit.
type indexPlan struct {
	gone                     []string
	changed, resolved, steps int
	// produce resolves the files that need it, in path order, and passes
	// each one's documents to emit as soon as they are made, so that the
	// caller writes them in batches and holds no more than one batch (a
	// build reads each file's facts when it resolves it and drops them).
	// With ledger, every document made is added to it (docLedger.add);
	// emit takes them off once written or dropped.
	produce func(emit func(fileDocs) error) error
	// finish, if not nil, writes what is left (the scope tables of a
	// whole resolution, which need every file's lookups) in tx, the
	// transaction of the last batch.
	finish func(tx *sql.Tx) error
}

// docLedger counts the documents a build or update has made and not yet
// written or dropped: what the batching bounds (see fillIndex). hook, if
// set (Options.heldDocs, this package's tests), sees every change. It is
// safe for concurrent use (a pipelined build makes documents on one
// goroutine and writes them on another); hook is called under its lock.
type docLedger struct {
	mu   sync.Mutex
	held int
	hook func(held int)
}

func (l *docLedger) add(n int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.held += n
	if l.hook != nil && n != 0 {
		l.hook(l.held)
	}
}

// planIndex plans the resolution of the files of the snapshot that need
// it and keeps the scopes in the search index (tx) current: with update,
// from the scopes recorded there if they are complete (and hold as many
// files as old), else (and for a build) the whole tree. old are the
// versions recorded for the files' documents. The documents are made
// when the plan's produce runs.
func (p *Project) planIndex(ctx context.Context, sn *store.Snapshot, files []store.FileState, tx *sql.Tx, old map[string]string, update bool, ledger *docLedger) (indexPlan, error) {
	ss, err := openScopeStore(ctx, tx)
	if err != nil {
		return indexPlan{}, err
	}
	defer ss.close()
	nw, err := openNameWordStore(ctx, tx, ss)
	if err != nil {
		return indexPlan{}, err
	}
	if update {
		complete, err := ss.complete(len(old))
		if err != nil {
			return indexPlan{}, fmt.Errorf("project: scope tables: %w", err)
		}
		if complete {
			return planUpdate(ctx, sn, files, ss, nw, old, rootSource(p.root), ledger)
		}
	}
	return planWhole(ctx, sn, files, nw, old, rootSource(p.root), ledger)
}

// planWhole resolves the whole tree and rewrites the scope and name word
// tables, a file at a time: it reads every file's facts once for its
// contribution to the tree's scopes (sourcefacts.FileScope) and
// vocabulary, keeping only those, then, in produce, each file's facts
// again to make its documents, which resolution needs the whole tree's
// scopes for. So it holds the scopes, the vocabulary and one file's facts,
// never every file's facts or documents.
func planWhole(ctx context.Context, sn *store.Snapshot, files []store.FileState, nw *nameWordStore, old map[string]string, src sourceReader, ledger *docLedger) (indexPlan, error) {
	facts := func(f store.FileState) (*sourcefacts.FileFacts, error) {
		r, err := sn.Facts(ctx, f.Path)
		if err != nil {
			return nil, fmt.Errorf("facts of %s: %w", f.Path, err)
		}
		return r.Facts, nil
	}
	all := bulkScopes{files: make([]sourcefacts.FileScope, len(files)), deps: make([][]int32, len(files))}
	words := newTreeWords(len(files))
	root := ""
	for i, f := range files {
		ff, err := facts(f)
		if err != nil {
			return indexPlan{}, err
		}
		// The facts a cold check held in memory (store.SnapshotOptions
		// .HoldFacts) serve this pass, serial, and are dropped as it goes:
		// held into the next pass too, they doubled the heap's goal (peak
		// RSS 529-613 MB on GOROOT/src, over the 500 MB bound); that pass
		// runs beside the writer and reads the database.
		sn.ReleaseFacts(f.Path)
		if i == 0 {
			root = ff.Provenance.Project
		}
		all.files[i] = sourcefacts.FileScopeOf(ff)
		words.add(ff)
	}
	scopes, vocab := sourcefacts.NewScopesOf(root, all.files), words.vocab
	if err := nw.reset(words.byPath); err != nil {
		return indexPlan{}, fmt.Errorf("project: name word tables: %w", err)
	}
	plan := indexPlan{changed: len(files), resolved: len(files), steps: len(files)}
	present := make(map[string]bool, len(files))
	for _, f := range files {
		present[f.Path] = true
	}
	for path := range old {
		if !present[path] {
			plan.gone = append(plan.gone, path)
		}
	}
	slices.Sort(plan.gone)
	plan.produce = func(emit func(fileDocs) error) error {
		for i, f := range files {
			ff, err := facts(f)
			if err != nil {
				return err
			}
			keys := sourcefacts.ScopeKeys{}
			docs := fileDocuments(nil, scopes.Recording(keys), vocab, ff, src(ff), f.PublishedIn)
			ledger.add(len(docs))
			all.deps[i] = depHashes(keys)
			fd := fileDocs{path: f.Path, docs: docs}
			if v := fileVersion(f, docs); old[f.Path] != v {
				fd.version = v
			}
			if err := emit(fd); err != nil {
				return err
			}
		}
		return nil
	}
	plan.finish = func(tx *sql.Tx) error {
		ss, err := openScopeStore(ctx, tx)
		if err != nil {
			return err
		}
		defer ss.close()
		if err := ss.reset(sourcefacts.RootBase(root)); err != nil {
			return fmt.Errorf("project: scope tables: %w", err)
		}
		if err := ss.write(all); err != nil {
			return fmt.Errorf("project: scope tables: %w", err)
		}
		if err := ss.finish(scopes.Table()); err != nil {
			return fmt.Errorf("project: scope tables: %w", err)
		}
		return nil
	}
	return plan, nil
}

// planUpdate brings the scope tables from the index's snapshot to this
// one and resolves the files that need it (see above). A file changed if
// the state its documents were made from (versionState of old) is not its
// state now.
func planUpdate(ctx context.Context, sn *store.Snapshot, files []store.FileState, ss *scopeStore, nw *nameWordStore, old map[string]string, src sourceReader, ledger *docLedger) (indexPlan, error) {
	// A changed file: its path, its index in files (-1: gone), what the
	// tables hold of it (id 0: nothing) and its contribution now.
	type change struct {
		path   string
		i      int
		stored storedFile
		now    *sourcefacts.FileScope
		facts  *sourcefacts.FileFacts
	}
	var changes []change
	present := make(map[string]bool, len(files))
	for i, f := range files {
		present[f.Path] = true
		if v, ok := old[f.Path]; !ok || versionState(v) != stateVersion(f) {
			changes = append(changes, change{path: f.Path, i: i})
		}
	}
	var plan indexPlan
	for path := range old {
		if !present[path] {
			plan.gone = append(plan.gone, path)
		}
	}
	slices.Sort(plan.gone)
	for _, path := range plan.gone {
		changes = append(changes, change{path: path, i: -1})
	}
	plan.changed = len(changes)
	if len(changes) == 0 {
		plan.produce = func(func(fileDocs) error) error { return nil }
		return plan, nil
	}
	// What the changed files contributed and contribute, and the
	// lookups whose answers that can change.
	var cands []sourcefacts.ScopeKey
	for n := range changes {
		c := &changes[n]
		var was *sourcefacts.FileScope
		s, ok, err := ss.stored(c.path)
		if err != nil {
			return indexPlan{}, fmt.Errorf("project: scope tables: %w", err)
		}
		if ok {
			c.stored, was = s, &s.scope
		}
		if c.i >= 0 {
			r, err := sn.Facts(ctx, c.path)
			if err != nil {
				return indexPlan{}, fmt.Errorf("facts of %s: %w", c.path, err)
			}
			fs := sourcefacts.FileScopeOf(r.Facts)
			c.facts, c.now = r.Facts, &fs
		}
		cands = append(cands, sourcefacts.ScopeChanges(was, c.now)...)
	}
	before, err := ss.values(cands)
	if err != nil {
		return indexPlan{}, err
	}
	for n := range changes {
		c := &changes[n]
		var was *sourcefacts.FileScope
		if c.stored.id != 0 {
			was = &c.stored.scope
		}
		if c.stored.id, err = ss.put(c.stored.id, was, c.now, c.stored.deps); err != nil {
			return indexPlan{}, fmt.Errorf("project: scope tables: %w", err)
		}
		if ss.err != nil {
			return indexPlan{}, ss.err
		}
	}
	if err := ss.learn(cands); err != nil {
		return indexPlan{}, fmt.Errorf("project: scope tables: %w", err)
	}
	after, err := ss.values(cands)
	if err != nil {
		return indexPlan{}, err
	}
	var moved []int32
	for k, v := range before {
		if after[k] != v {
			moved = append(moved, depHash(k))
		}
	}
	dependents, err := ss.dependents(moved)
	if err != nil {
		return indexPlan{}, fmt.Errorf("project: scope tables: %w", err)
	}
	// The words that came into or left the vocabulary, and the files
	// whose name parts they can split differently.
	var flipped []string
	for _, c := range changes {
		var now *fileNameWords
		if c.facts != nil {
			fw := nameWordsOf(c.facts)
			now = &fw
		}
		f, err := nw.update(c.path, now)
		if err != nil {
			return indexPlan{}, fmt.Errorf("project: name word tables: %w", err)
		}
		flipped = append(flipped, f...)
	}
	splitting, err := nw.splitting(flipped)
	if err != nil {
		return indexPlan{}, fmt.Errorf("project: name word tables: %w", err)
	}
	for _, path := range splitting {
		s, ok, err := ss.stored(path)
		if err != nil {
			return indexPlan{}, fmt.Errorf("project: scope tables: %w", err)
		}
		if ok {
			dependents[s.id] = true
		}
	}
	// Resolve the changed files and their dependents, in path order.
	type job struct {
		i      int
		stored storedFile
		facts  *sourcefacts.FileFacts
	}
	var jobs []job
	for _, c := range changes {
		if c.i >= 0 {
			jobs = append(jobs, job{c.i, c.stored, c.facts})
			delete(dependents, c.stored.id)
		}
	}
	for id := range dependents {
		path, err := ss.pathOf(id)
		if err != nil {
			return indexPlan{}, fmt.Errorf("project: scope tables: %w", err)
		}
		i, found := slices.BinarySearchFunc(files, path, func(f store.FileState, p string) int { return strings.Compare(f.Path, p) })
		if !found {
			return indexPlan{}, fmt.Errorf("project: scope tables: %s depends on a change but is not in the snapshot", path)
		}
		s, _, err := ss.stored(path)
		if err != nil {
			return indexPlan{}, fmt.Errorf("project: scope tables: %w", err)
		}
		jobs = append(jobs, job{i: i, stored: s})
	}
	slices.SortFunc(jobs, func(a, b job) int { return a.i - b.i })
	plan.resolved = len(jobs)
	// Their facts, then the words of the tree that can split their
	// definitions' names.
	var names []string
	for n := range jobs {
		j := &jobs[n]
		if j.facts == nil {
			r, err := sn.Facts(ctx, files[j.i].Path)
			if err != nil {
				return indexPlan{}, fmt.Errorf("facts of %s: %w", files[j.i].Path, err)
			}
			j.facts = r.Facts
		}
		for _, s := range j.facts.Symbols {
			names = append(names, s.Name)
		}
	}
	vocab, err := nw.vocabularyFor(names, maxVocabularyPieces)
	if err != nil {
		return indexPlan{}, fmt.Errorf("project: name word tables: %w", err)
	}
	resolver := sourcefacts.NewScopesOver(ss.root, ss)
	var todo []fileDocs
	for n := range jobs {
		j := &jobs[n]
		f := files[j.i]
		keys := sourcefacts.ScopeKeys{}
		docs := fileDocuments(nil, resolver.Recording(keys), vocab, j.facts, src(j.facts), f.PublishedIn)
		j.facts = nil
		if ss.err != nil {
			return indexPlan{}, ss.err
		}
		if err := ss.setDeps(j.stored.id, j.stored.deps, depHashes(keys)); err != nil {
			return indexPlan{}, fmt.Errorf("project: scope tables: %w", err)
		}
		ledger.add(len(docs))
		if v := fileVersion(f, docs); old[f.Path] != v {
			todo = append(todo, fileDocs{f.Path, v, docs})
		} else {
			ledger.add(-len(docs))
		}
	}
	// The scope tables are read and written through ss's transaction
	// while the files are resolved: the documents are passed on after
	// (an update holds those of the files it resolves).
	plan.steps = len(todo)
	plan.produce = func(emit func(fileDocs) error) error {
		for n, fd := range todo {
			todo[n] = fileDocs{}
			if err := emit(fd); err != nil {
				return err
			}
		}
		return nil
	}
	return plan, nil
}
