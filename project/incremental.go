package project

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/cespare/xxhash/v2"

	"github.com/rlm-dev/rlm/retrieval"
	"github.com/rlm-dev/rlm/retrieval/embedded"
	"github.com/rlm-dev/rlm/sourcefacts/store"
)

// Incremental search indexes. A search index file shows one snapshot (its
// name holds the generation and fingerprint), and it records with each
// file the version of the file its documents were made from (fileVersion,
// kept by embedded.Writer.ReplaceSources). The index of a new snapshot is
// derived from the index of an earlier one of the same knowledge base,
// embedder, vector store and format: the documents of the files whose
// version differs, that are new or that are gone are deleted and the
// changed and new files' documents inserted (with their vectors, and in
// the Chroma collection with Options.Chroma). Every file's facts are read
// (calls resolve across the tree), but the writes — index entries,
// embeddings — are in proportion to the documents changed. Since the
// version covers the file's FileState and its documents themselves
// (fileVersion), an index so derived holds exactly the documents a fresh
// build of the snapshot would.
//
// The guarantees of a built index hold for a derived one:
//
//   - A search index file under its final name is complete and verified:
//     the derivation writes under a temporary name (isIndexTemp), which is
//     sealed (checkpointed, header-checked, synced) and only then renamed
//     into place.
//   - Readers of the earlier index are never disturbed. Its file is updated
//     in place only when no one holds a lock on it (tryLockExclusive: no
//     Project in any process has it open; a Project that starts to open it
//     meanwhile waits for the lock and then finds it gone). It is first
//     renamed to the temporary name, under the lock, so that its final name
//     never shows anything but its own snapshot. An index that someone reads
//     is copied instead (the copy costs one read and write of the file), and
//     the copy is updated.
//   - A crash leaves nothing half-done under a final name: only the
//     temporary file, which removeStaleTemps deletes. An update in place is
//     one SQLite transaction; when it fails before its commit (a full disk,
//     an embedder or Chroma error), the file, unchanged, gets its name back.
//
// The seal of a derived index skips the full PRAGMA quick_check of a build
// (it reads the whole file, which would cost more than the update): the
// earlier index passed it when it was sealed, and what the update wrote is
// SQLite's own committed, checkpointed transaction.

// stateVersion is the version of f's state: a hash of every FileState
// field the facts of the file depend on. Any change of bytes, extraction,
// status or provenance changes it. An update reads again the facts of the
// files whose state differs from the one their documents were made from
// (versionState).
func stateVersion(f store.FileState) string {
	// The fields in a fixed order, each followed by a zero byte, hashed
	// at once (as if written to one xxhash digest: the same value).
	b := make([]byte, 0, 256)
	for _, n := range [...]int64{int64(f.Hash.XXH64), f.Hash.Len, f.FileGeneration, f.ParseGeneration, f.PublishedIn, int64(f.SchemaVersion)} {
		b = append(strconv.AppendInt(b, n, 10), 0)
	}
	for _, v := range [...]bool{f.Dirty, f.Test} {
		b = append(strconv.AppendBool(b, v), 0)
	}
	for _, s := range [...]string{f.Status, f.Error, f.Parser, f.Grammar, f.GrammarVersion, f.Extractor, f.Language, f.Role, f.Package, f.LanguageBy} {
		b = append(append(b, s...), 0)
	}
	return strconv.FormatUint(xxhash.Sum64(b), 16)
}

// fileVersion is the version recorded for f's documents in a search index:
// its state (stateVersion), "." and a hash of its documents docs (JSON),
// which also depend on other files (calls resolved across the tree,
// Documents). Any change of the state or of what the file's calls resolve
// to changes it.
func fileVersion(f store.FileState, docs []retrieval.Document) string {
	h := xxhash.New()
	// Documents are plain strings, numbers and maps: they always encode,
	// maps in key order.
	json.NewEncoder(h).Encode(docs)
	return stateVersion(f) + "." + strconv.FormatUint(h.Sum64(), 16)
}

// versionState is the state (stateVersion) a fileVersion v was made from.
func versionState(v string) string {
	s, _, _ := strings.Cut(v, ".")
	return s
}

// indexBuild says how a search index was come by: reused as it was, built
// whole, or derived from the index of generation From.
type indexBuild struct {
	Reused bool
	From   int64 // the generation whose index was updated; 0 when built whole
	Files  int   // files whose documents were written (or removed)
	// Changed counts the files whose facts changed (all of them for a
	// build), Resolved the files whose calls were resolved (the changed
	// ones and those whose resolution depends on what they define).
	Changed, Resolved int
}

// indexWriter is where a build or update writes: the embedded file and,
// with Options.Chroma, the collection that holds its vectors.
type indexWriter struct {
	primary *embedded.Backend
	vec     retrieval.Backend
}

// writerOf is the indexWriter of a backend opened by openBackend.
func writerOf(b retrieval.Backend) (indexWriter, error) {
	switch b := b.(type) {
	case *embedded.Backend:
		return indexWriter{primary: b}, nil
	case *retrieval.Router:
		if e, ok := b.Primary.(*embedded.Backend); ok {
			return indexWriter{primary: e, vec: b.Vectors}, nil
		}
	}
	return indexWriter{}, fmt.Errorf("project: search index backend %T", b)
}

// fillIndex brings the search index ix, whose files had the versions old
// (path → fileVersion; empty for a new file), to the snapshot's files:
// the files planIndex resolves (with update, the changed ones and their
// dependents; else all) have their documents replaced where their version
// differs, and those of the files no longer in the snapshot are removed,
// in batches of about buildBatch documents, each written as soon as it is
// made (indexPlan.produce). With oneTx everything is one transaction, else
// each batch is (what the plan leaves to write, indexPlan.finish, is in
// the last). It reports phase progress in files (resolved by a whole
// build, written by an update), and returns what it wrote and whether the
// (last) transaction committed.
//
// An update makes and writes its batches in turn, so it holds one batch
// of documents at a time. A build (not update) makes the next batch on
// another goroutine while the last one is written (pipelined): the
// documents, their encoding for the tables (embedded.PrepareSources) and
// the facts they are made from are CPU work that the SQLite writes need
// not wait for. The maker hands a batch over only when the writer takes
// it (no queue), so a build holds at most two batches: the one written
// and the one made. Either way the batches, their order and their
// transactions are the same, so the index is the same.
func (p *Project) fillIndex(ctx context.Context, sn *store.Snapshot, files []store.FileState, ix indexWriter, old map[string]string, update, oneTx bool, phase string) (indexBuild, bool, error) {
	w, err := ix.primary.BeginWrite(ctx)
	if err != nil {
		return indexBuild{}, false, err
	}
	defer func() {
		if w != nil {
			w.Rollback() // after Commit: ErrWriterDone, nothing to undo
		}
	}()
	ledger := &docLedger{hook: p.opts.heldDocs}
	plan, err := p.planIndex(ctx, sn, files, w.Tx(), old, update, ledger)
	if err != nil {
		return indexBuild{}, false, err
	}
	how := indexBuild{Changed: plan.changed, Resolved: plan.resolved}
	total := plan.steps + len(plan.gone)
	done, reported := 0, -1
	report := func() {
		if p.opts.Progress != nil && done != reported {
			p.opts.Progress(Progress{Phase: phase, Done: done, Total: total})
		}
		reported = done
	}
	report()
	size := buildBatch
	if p.opts.batchDocs > 0 {
		size = p.opts.batchDocs
	}
	// write writes one batch (and commits it unless oneTx); b.done is the
	// number of files it brings the phase to.
	write := func(b indexBatch) error {
		if p.opts.writingBatch != nil {
			p.opts.writingBatch()
		}
		var removed []string
		var err error
		if b.prepared != nil {
			removed, err = w.ReplacePrepared(ctx, b.versions, b.prepared)
		} else {
			removed, err = w.ReplaceSources(ctx, b.versions, b.docs)
		}
		if err != nil {
			return err
		}
		if ix.vec != nil {
			if err := ix.vec.Delete(ctx, removed); err != nil {
				return fmt.Errorf("project: chroma delete: %w", err)
			}
			// A document the collection refuses keeps no vector; the
			// reconcile at open counts it (VectorState.Refused).
			if _, err := upsertVectors(ctx, ix.vec, b.docs); err != nil {
				return fmt.Errorf("project: chroma upsert: %w", err)
			}
		}
		how.Files += len(b.versions)
		ledger.add(-len(b.docs))
		done = b.done
		report()
		if oneTx {
			return nil
		}
		if err := w.Commit(); err != nil {
			return err
		}
		w, err = ix.primary.BeginWrite(ctx)
		return err
	}
	cur := indexBatch{versions: map[string]string{}}
	for _, path := range plan.gone {
		cur.versions[path] = ""
	}
	cur.done = len(plan.gone)
	// add adds fd to the batch being made and reports whether it is full.
	add := func(fd fileDocs) bool {
		cur.done++
		if fd.version == "" { // as recorded: nothing to write
			ledger.add(-len(fd.docs))
			return false
		}
		cur.docs = append(cur.docs, fd.docs...)
		cur.versions[fd.path] = fd.version
		return len(cur.docs) >= size
	}
	next := func() indexBatch {
		b := cur
		cur = indexBatch{versions: map[string]string{}, done: b.done}
		return b
	}
	if update {
		err = plan.produce(func(fd fileDocs) error {
			full := add(fd)
			if fd.version == "" {
				if done = cur.done; done-reported >= 100 {
					report()
				}
			}
			if full {
				return write(next())
			}
			return nil
		})
		if err == nil && len(cur.versions) > 0 {
			err = write(next())
		}
	} else {
		err = p.pipeline(ctx, plan, add, next, write)
	}
	if err != nil {
		return how, false, err
	}
	report()
	if plan.finish != nil {
		if err := plan.finish(w.Tx()); err != nil {
			return how, false, err
		}
	}
	if err := w.Commit(); err != nil {
		return how, false, err
	}
	return how, true, nil
}

// indexBatch is one batch of fillIndex: the sources whose documents it
// replaces (path → version, "" for a file gone), their documents, those
// prepared for the tables (nil: not yet) and the files of the phase done
// once it is written.
type indexBatch struct {
	versions map[string]string
	docs     []retrieval.Document
	prepared *embedded.Prepared
	done     int
}

// errPipelineStopped ends the maker of a pipelined build whose writer
// failed.
var errPipelineStopped = errors.New("project: the search index writer stopped")

// pipeline runs plan.produce on a goroutine of its own, which adds each
// file's documents to the batch being made (add: true when it is full),
// takes it (next), prepares it and hands it to this goroutine, which
// writes the batches (write) in the order made; the last batch is handed
// over when produce returns. The first error of either side stops both
// and is returned (the writer's first: the maker's then is
// errPipelineStopped).
func (p *Project) pipeline(ctx context.Context, plan indexPlan, add func(fileDocs) bool, next func() indexBatch, write func(indexBatch) error) error {
	batches := make(chan indexBatch) // unbuffered: at most one batch made and not yet written
	stop := make(chan struct{})
	made := make(chan error, 1)
	hand := func(b indexBatch) error {
		if len(b.versions) == 0 {
			return nil
		}
		var err error
		if b.prepared, err = embedded.PrepareSources(b.docs); err != nil {
			return err
		}
		select {
		case batches <- b:
			return nil
		case <-stop:
			return errPipelineStopped
		}
	}
	go func() {
		defer close(batches)
		err := plan.produce(func(fd fileDocs) error {
			if add(fd) {
				return hand(next())
			}
			return nil
		})
		if err == nil {
			err = hand(next())
		}
		made <- err
	}()
	var werr error
	for b := range batches {
		if werr == nil {
			if werr = write(b); werr != nil {
				close(stop)
			}
		}
	}
	if merr := <-made; werr == nil && merr != nil {
		return merr
	}
	return werr
}

// errNoBase: there is no earlier search index to derive from.
var errNoBase = errors.New("project: no earlier search index to derive from")

// baseIndex is an earlier search index file a new one can be derived from.
type baseIndex struct {
	path string
	gen  int64
}

// baseCandidates lists the search index files in dir of the same embedder,
// vector store and format as searchPath (of generation gen), other than
// searchPath: the nearest generation first, the newer of two equally near.
func baseCandidates(searchPath string, gen int64) []baseIndex {
	dir, name := filepath.Split(searchPath)
	_, _, kind, ok := parseIndexName(name)
	if !ok {
		return nil
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []baseIndex
	for _, e := range ents {
		g, _, k, ok := parseIndexName(e.Name())
		if ok && k == kind && e.Name() != name {
			out = append(out, baseIndex{filepath.Join(dir, e.Name()), g})
		}
	}
	dist := func(g int64) int64 {
		if g > gen {
			return g - gen
		}
		return gen - g
	}
	slices.SortFunc(out, func(a, b baseIndex) int {
		if d := dist(a.gen) - dist(b.gen); d != 0 {
			return int(min(max(d, -1), 1))
		}
		return int(min(max(b.gen-a.gen, -1), 1))
	})
	return out
}

// parseIndexName splits a search index file name (searchIndexName) into
// its generation, fingerprint and kind (embedder, vector store and format,
// with the .sqlite suffix).
func parseIndexName(n string) (gen int64, fp, kind string, ok bool) {
	parts := strings.SplitN(strings.TrimPrefix(n, searchIndexPrefix), "-", 3)
	if !strings.HasPrefix(n, searchIndexPrefix) || !strings.HasSuffix(n, ".sqlite") || len(parts) != 3 {
		return 0, "", "", false
	}
	gen, err := strconv.ParseInt(parts[0], 10, 64)
	if err != nil {
		return 0, "", "", false
	}
	return gen, parts[1], parts[2], true
}

// usableBase reports whether the search index file at path can be derived
// from: whole (checkIndexFile) and with nothing in a -wal file beside it
// (a final file is never written, so its WAL holds no frames).
func usableBase(path string) bool {
	if checkIndexFile(path) != nil {
		return false
	}
	fi, err := os.Stat(path + "-wal")
	return errors.Is(err, os.ErrNotExist) || err == nil && fi.Size() == 0
}

// deriveSearchIndex writes the search index of the snapshot to searchPath
// by updating an earlier index (see above): in place if one is free, else
// a copy of one that is read. errNoBase when there is none.
func (p *Project) deriveSearchIndex(ctx context.Context, sn *store.Snapshot, files []store.FileState, searchPath string, current map[string]string, vectors bool) (indexBuild, error) {
	cands := baseCandidates(searchPath, sn.Identity().Generation)
	for _, c := range cands {
		l, ok := tryLockExclusive(c.path)
		if !ok {
			continue
		}
		if checkIndexFile(c.path) != nil { // damaged: no use to anyone
			removeIndexFiles(c.path)
		}
		if !usableBase(c.path) {
			l.unlock()
			continue
		}
		n, err := p.deriveInPlace(ctx, sn, files, c.path, searchPath, current, vectors)
		l.unlock()
		n.From = c.gen
		return n, err
	}
	for _, c := range cands {
		n, err := p.deriveFromCopy(ctx, sn, files, c.path, searchPath, current, vectors)
		if errors.Is(err, errNoBase) {
			continue
		}
		n.From = c.gen
		return n, err
	}
	return indexBuild{}, errNoBase
}

// newIndexTemp creates an empty temporary file for the search index at
// searchPath (a name isIndexTemp knows) and returns its path.
func newIndexTemp(searchPath string) (string, error) {
	tf, err := os.CreateTemp(filepath.Dir(searchPath), strings.TrimSuffix(filepath.Base(searchPath), ".sqlite")+".tmp*")
	if err != nil {
		return "", err
	}
	tmp := tf.Name()
	return tmp, tf.Close()
}

// deriveInPlace updates the index file base, which the caller holds an
// exclusive lock on, into searchPath's: renamed to a temporary name, updated
// in one transaction, sealed and renamed to searchPath. If the update fails
// before its commit, base gets its name back.
func (p *Project) deriveInPlace(ctx context.Context, sn *store.Snapshot, files []store.FileState, base, searchPath string, current map[string]string, vectors bool) (indexBuild, error) {
	tmp, err := newIndexTemp(searchPath)
	if err != nil {
		return indexBuild{}, err
	}
	if err := os.Rename(base, tmp); err != nil {
		os.Remove(tmp)
		return indexBuild{}, err
	}
	// The -wal and -shm of a file no one has open hold nothing
	// (usableBase); the temporary name gets its own.
	os.Remove(base + "-wal")
	os.Remove(base + "-shm")
	// Its quantised vector bases (embedded.SidecarFiles) are of the old
	// rows: gone, written anew for the updated file (openIndex).
	for _, f := range embedded.SidecarFiles(base) {
		os.Remove(f)
	}
	now := time.Now() // keeps removeStaleTemps off it, besides the lock
	os.Chtimes(tmp, now, now)
	n, committed, err := p.writeIndexFile(ctx, sn, files, tmp, current, vectors, updateInPlace)
	if err != nil {
		if committed || errors.Is(err, ErrCorruptIndex) {
			removeIndexFiles(tmp) // changed, or damaged: derived data, gone
		} else {
			os.Remove(tmp + "-wal")
			os.Remove(tmp + "-shm")
			if os.Rename(tmp, base) != nil {
				removeIndexFiles(tmp)
			}
		}
		return n, err
	}
	return n, publishIndex(tmp, searchPath)
}

// deriveFromCopy copies the index file base (held under a shared lock while
// it is copied) to a temporary file and updates the copy into searchPath's.
// errNoBase if base is gone or unusable.
func (p *Project) deriveFromCopy(ctx context.Context, sn *store.Snapshot, files []store.FileState, base, searchPath string, current map[string]string, vectors bool) (indexBuild, error) {
	sl, err := lockShared(base)
	if err != nil {
		return indexBuild{}, errNoBase
	}
	if !usableBase(base) {
		sl.unlock()
		return indexBuild{}, errNoBase
	}
	tmp, err := newIndexTemp(searchPath)
	if err != nil {
		sl.unlock()
		return indexBuild{}, err
	}
	lock, _ := tryLockExclusive(tmp) // keeps removeStaleTemps off it
	defer lock.unlock()
	err = copyFile(base, tmp)
	sl.unlock()
	if err != nil {
		removeIndexFiles(tmp)
		return indexBuild{}, err
	}
	n, _, err := p.writeIndexFile(ctx, sn, files, tmp, current, vectors, updateCopy)
	if err != nil {
		removeIndexFiles(tmp)
		if errors.Is(err, ErrCorruptIndex) {
			if l, ok := tryLockExclusive(base); ok { // a damaged base is no use to anyone
				removeIndexFiles(base)
				l.unlock()
			}
		}
		return n, err
	}
	return n, publishIndex(tmp, searchPath)
}

// copyFile copies the bytes of src over dst (not synced: sealIndexFile
// syncs).
func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		return err
	}
	_, err = io.Copy(out, in)
	return errors.Join(err, out.Close())
}

// indexWrite is how writeIndexFile writes a search index file.
type indexWrite int

const (
	// writeWhole fills a new file with every file's documents, one
	// transaction per batch; the seal verifies it whole.
	writeWhole indexWrite = iota
	// updateInPlace updates an earlier index renamed for the purpose, in
	// one transaction: a failure before its commit leaves the file as it
	// was.
	updateInPlace
	// updateCopy updates a copy of an earlier index, one transaction per
	// batch.
	updateCopy
)

// writeIndexFile opens the search index file at tmp, brings it to the
// snapshot (fillIndex: from the files' versions and scopes recorded in it,
// or from nothing with writeWhole) and closes and seals it. It returns
// what it wrote and whether the (last) transaction committed.
//
// A whole build writes its new file as a bulk build (embedded.WithBulkBuild:
// no journal, the search indexes made at the end): the file is its own
// until it is sealed, and a build that fails or is killed leaves only a
// temporary file, which is removed (removeIndexFiles, removeStaleTemps),
// never renamed into place. An update keeps its journal: an update in
// place that fails before its commit must leave the earlier index whole.
func (p *Project) writeIndexFile(ctx context.Context, sn *store.Snapshot, files []store.FileState, tmp string, current map[string]string, vectors bool, how indexWrite) (n indexBuild, committed bool, err error) {
	eopts := []embedded.Option{embedded.WithUnsyncedWrites()} // sealIndexFile syncs
	if how == writeWhole {
		eopts = append(eopts, embedded.WithBulkBuild())
	}
	b, err := p.openBackend(ctx, tmp, current, vectors, eopts...)
	if err != nil {
		return indexBuild{}, false, asCorrupt(err)
	}
	ix, err := writerOf(b)
	var old map[string]string
	phase := PhaseBuild
	if err == nil && how != writeWhole {
		phase = PhaseUpdate
		old, err = ix.primary.SourceVersions(ctx)
	}
	if err == nil {
		n, committed, err = p.fillIndex(ctx, sn, files, ix, old, how != writeWhole, how == updateInPlace, phase)
	}
	if err == nil {
		err = ix.primary.FinishBulk(ctx)
	}
	if cerr := b.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = sealIndexFile(ctx, tmp, how == writeWhole)
	}
	return n, committed, asCorrupt(err)
}

// publishIndex renames the sealed temporary file tmp to searchPath and
// syncs the directory; on failure tmp is removed.
func publishIndex(tmp, searchPath string) error {
	if err := os.Rename(tmp, searchPath); err != nil {
		removeIndexFiles(tmp)
		return err
	}
	removeIndexFiles(tmp) // the -wal/-shm of the closed file, if any
	return syncPath(filepath.Dir(searchPath))
}
