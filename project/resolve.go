package project

import (
	"context"
	"database/sql"
	"fmt"
	"maps"
	"slices"

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

// fileDocs are the documents of one file and their version.
type fileDocs struct {
	path, version string
	docs          []retrieval.Document
}

// indexPlan is what a build or update writes: the documents of the files
// in todo, and the removal of those of the files in gone; changed counts
// the files whose facts changed (new, edited or gone), resolved the files
// whose calls were resolved.
type indexPlan struct {
	todo              []fileDocs
	gone              []string
	changed, resolved int
}

// planIndex resolves the files of the snapshot that need it and keeps the
// scopes in the search index (tx) current: with update, from the scopes
// recorded there if they are complete, else (and for a build) the whole
// tree. old are the versions recorded for the files' documents.
func (p *Project) planIndex(ctx context.Context, sn *store.Snapshot, files []store.FileState, tx *sql.Tx, old map[string]string, update bool) (indexPlan, error) {
	ss, err := openScopeStore(ctx, tx)
	if err != nil {
		return indexPlan{}, err
	}
	defer ss.close()
	if update {
		complete, err := ss.complete()
		if err != nil {
			return indexPlan{}, fmt.Errorf("project: scope tables: %w", err)
		}
		if complete {
			return planUpdate(ctx, sn, files, ss, old)
		}
	}
	return planWhole(ctx, sn, files, ss, old)
}

// planWhole reads every file's facts, resolves the whole tree and
// rewrites the scope tables.
func planWhole(ctx context.Context, sn *store.Snapshot, files []store.FileState, ss *scopeStore, old map[string]string) (indexPlan, error) {
	facts := make([]*sourcefacts.FileFacts, len(files))
	for i, f := range files {
		r, err := sn.Facts(ctx, f.Path)
		if err != nil {
			return indexPlan{}, fmt.Errorf("facts of %s: %w", f.Path, err)
		}
		facts[i] = r.Facts
	}
	scopes := treeScopes(facts)
	root := ""
	if len(facts) > 0 {
		root = facts[0].Provenance.Project
	}
	if err := ss.reset(sourcefacts.RootBase(root)); err != nil {
		return indexPlan{}, fmt.Errorf("project: scope tables: %w", err)
	}
	plan := indexPlan{changed: len(files), resolved: len(files)}
	present := make(map[string]bool, len(files))
	for i, f := range files {
		present[f.Path] = true
		keys := sourcefacts.ScopeKeys{}
		docs := fileDocuments(nil, scopes.Recording(keys), facts[i], f.PublishedIn)
		id, err := ss.add(0, stateVersion(f), sourcefacts.FileScopeOf(facts[i]))
		facts[i] = nil
		if err == nil {
			err = ss.setDeps(id, nil, depHashes(keys))
		}
		if err != nil {
			return indexPlan{}, fmt.Errorf("project: scope tables: %w", err)
		}
		if v := fileVersion(f, docs); old[f.Path] != v {
			plan.todo = append(plan.todo, fileDocs{f.Path, v, docs})
		}
	}
	if err := ss.finish(scopes.Table()); err != nil {
		return indexPlan{}, fmt.Errorf("project: scope tables: %w", err)
	}
	for path := range old {
		if !present[path] {
			plan.gone = append(plan.gone, path)
		}
	}
	slices.Sort(plan.gone)
	return plan, nil
}

// planUpdate brings the scope tables from the index's snapshot to this
// one and resolves the files that need it (see above).
func planUpdate(ctx context.Context, sn *store.Snapshot, files []store.FileState, ss *scopeStore, old map[string]string) (indexPlan, error) {
	stored, err := ss.files()
	if err != nil {
		return indexPlan{}, fmt.Errorf("project: scope tables: %w", err)
	}
	// A changed file: its index in files (-1: gone), its stored id (0:
	// new), its contribution before and after.
	type change struct {
		i        int
		id       int64
		was, now sourcefacts.FileScope
		deps     []uint64
		facts    *sourcefacts.FileFacts
	}
	var changes []change
	present := make(map[string]bool, len(files))
	for i, f := range files {
		present[f.Path] = true
		if s, ok := stored[f.Path]; !ok || s.state != stateVersion(f) {
			changes = append(changes, change{i: i, id: s.id})
		}
	}
	for _, path := range slices.Sorted(maps.Keys(stored)) {
		if !present[path] {
			changes = append(changes, change{i: -1, id: stored[path].id})
		}
	}
	plan := indexPlan{changed: len(changes)}
	for path := range old {
		if !present[path] {
			plan.gone = append(plan.gone, path)
		}
	}
	slices.Sort(plan.gone)
	if len(changes) == 0 {
		return plan, nil
	}
	// What the changed files contributed and contribute, and the
	// lookups that can answer differently for it.
	var scopes []sourcefacts.FileScope
	for n := range changes {
		c := &changes[n]
		if c.id != 0 {
			if c.was, c.deps, err = ss.stored(c.id); err != nil {
				return indexPlan{}, fmt.Errorf("project: scope tables: %w", err)
			}
			scopes = append(scopes, c.was)
		}
		if c.i >= 0 {
			f := files[c.i]
			r, err := sn.Facts(ctx, f.Path)
			if err != nil {
				return indexPlan{}, fmt.Errorf("facts of %s: %w", f.Path, err)
			}
			c.facts, c.now = r.Facts, sourcefacts.FileScopeOf(r.Facts)
			scopes = append(scopes, c.now)
		}
	}
	cands := sourcefacts.ScopeCandidates(scopes...)
	before, err := ss.values(cands)
	if err != nil {
		return indexPlan{}, err
	}
	for n := range changes {
		c := &changes[n]
		if c.id != 0 {
			if err := ss.remove(c.id, c.was, c.deps, c.i < 0); err != nil {
				return indexPlan{}, fmt.Errorf("project: scope tables: %w", err)
			}
		}
		if c.i >= 0 {
			if c.id, err = ss.add(c.id, stateVersion(files[c.i]), c.now); err != nil {
				return indexPlan{}, fmt.Errorf("project: scope tables: %w", err)
			}
		}
	}
	if err := ss.learn(cands); err != nil {
		return indexPlan{}, fmt.Errorf("project: scope tables: %w", err)
	}
	after, err := ss.values(cands)
	if err != nil {
		return indexPlan{}, err
	}
	var moved []uint64
	for _, k := range cands {
		if before[k] != after[k] {
			moved = append(moved, k.Hash())
		}
	}
	dependents, err := ss.dependents(moved)
	if err != nil {
		return indexPlan{}, fmt.Errorf("project: scope tables: %w", err)
	}
	// Resolve the changed files and their dependents, in path order.
	type job struct {
		i     int
		id    int64
		deps  []uint64
		known bool // deps hold the stored lookups
		facts *sourcefacts.FileFacts
	}
	var jobs []job
	for _, c := range changes {
		if c.i >= 0 {
			jobs = append(jobs, job{c.i, c.id, c.deps, true, c.facts})
			delete(dependents, c.id)
		}
	}
	for i, f := range files {
		if s, ok := stored[f.Path]; ok && dependents[s.id] {
			jobs = append(jobs, job{i: i, id: s.id})
		}
	}
	slices.SortFunc(jobs, func(a, b job) int { return a.i - b.i })
	plan.resolved = len(jobs)
	resolver := sourcefacts.NewScopesOver(ss.root, ss)
	for _, j := range jobs {
		f := files[j.i]
		if j.facts == nil {
			r, err := sn.Facts(ctx, f.Path)
			if err != nil {
				return indexPlan{}, fmt.Errorf("facts of %s: %w", f.Path, err)
			}
			j.facts = r.Facts
		}
		if !j.known {
			if _, j.deps, err = ss.stored(j.id); err != nil {
				return indexPlan{}, fmt.Errorf("project: scope tables: %w", err)
			}
		}
		keys := sourcefacts.ScopeKeys{}
		docs := fileDocuments(nil, resolver.Recording(keys), j.facts, f.PublishedIn)
		if ss.err != nil {
			return indexPlan{}, ss.err
		}
		if err := ss.setDeps(j.id, j.deps, depHashes(keys)); err != nil {
			return indexPlan{}, fmt.Errorf("project: scope tables: %w", err)
		}
		if v := fileVersion(f, docs); old[f.Path] != v {
			plan.todo = append(plan.todo, fileDocs{f.Path, v, docs})
		}
	}
	return plan, nil
}
