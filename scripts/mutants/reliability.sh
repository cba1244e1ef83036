# Mutants for issue 12's reliability faults (see scripts/mutants.sh).

# Walking real trees: a per-path failure is recorded, the rest listed.
mutant "an unreadable directory fails the walk" sourcefacts/list.go 's|faults = append(faults, PathFault{Path: strings.Join(comps, "/"), Err: err})|return err|' ./sourcefacts -run 'TestListRecordsEveryPathItCannotWalk'
mutant "a special file is silently not listed" sourcefacts/list.go 's|faults = append(faults, PathFault{Path: rel, Err: fmt.Errorf("%w: %s", ErrSpecialFile, specialKind(t))})||' ./sourcefacts -run 'TestListRecordsEveryPathItCannotWalk'
mutant "a symbolic link loop is silently not listed" sourcefacts/list.go 's|return false, err$|return false, nil|' ./sourcefacts -run 'TestListRecordsEveryPathItCannotWalk'
mutant "files under an unwalkable directory are dropped as gone" sourcefacts/store/validate.go 's|if now.same(want) {|if w.gone \|\| now.same(want) {|' ./cmd/rlm -run 'TestUnreadableDirectoryIsReported'
mutant "status does not show the walk's faults" cmd/rlm/status.go 's|printFaults(stdout, faultsOut(s.Faults))||' ./cmd/rlm -run 'TestUnreadableDirectoryIsReported'
mutant "an answer's notes do not count the walk's faults" rlm.go 's|ans.Unwalked = append(ans.Unwalked, |_ = append(ans.Unwalked, |' ./cmd/rlm -run 'TestUnreadableDirectoryIsReported'

# .rlm/ ignores itself.
mutant ".rlm writes no .gitignore" project/rlmdir.go 's|if filepath.Base(dir) != kbDirName {|if true {|' ./project -run 'TestKnowledgeBaseDirectoryIsIgnoredByGit'
mutant ".rlm's .gitignore does not ignore everything" project/rlmdir.go 's|project\\n\*\\n"$|project\\n"|' ./project -run 'TestKnowledgeBaseDirectoryIsIgnoredByGit'
mutant "a user's .gitignore in .rlm is overwritten" project/rlmdir.go 's/os.O_WRONLY|os.O_CREATE|os.O_EXCL/os.O_WRONLY|os.O_CREATE|os.O_TRUNC/' ./project -run 'TestKnowledgeBaseDirectoryIsIgnoredByGit'

# Search index builds are atomic; damaged or leftover files are dealt with.
mutant "a build is renamed into place unsealed" project/incremental.go 's|err = sealIndexFile(ctx, tmp, how == writeWhole)|err = nil|' ./project -run 'TestFullDiskNeverLeaves'
mutant "a build that fails mid-way leaves its temporary file" project/searchindex.go '/p.writeIndexFile(ctx, sn, files, tmp, current, vectors, writeWhole)$/,+2 s|removeIndexFiles(tmp)|_ = tmp|' ./project -run 'TestFullDiskNeverLeaves'
mutant "a backend that fails to open leaves its temporary files" project/searchindex.go '/p.writeIndexFile(ctx, sn, files, tmp, current, vectors, writeWhole)$/,+2 s|removeIndexFiles(tmp)|_ = tmp|' ./project -run 'TestFailedSearchIndexBuildsLeaveNoTemporaryFiles'
mutant "leftover temporary files are not removed at open" project/searchindex.go 's|^\tremoveStaleTemps(dir)$|\t_ = removeStaleTemps|' ./project -run 'TestFailedSearchIndexBuildsLeaveNoTemporaryFiles'
mutant "a build under way loses its temporary file to a cleaner" project/indexfile.go 's|if l, ok := tryLockExclusive(path); ok {|if l, ok := (*fileLock)(nil), true; ok {|' ./project -run 'TestFailedSearchIndexBuildsLeaveNoTemporaryFiles'
mutant "a truncated search index is opened as it is" project/searchindex.go 's|if err := checkIndexFile(path); err != nil {|if err := error(nil); err != nil {|' ./project -run 'TestDamagedSearchIndexIsRebuilt'
mutant "SQLite's corrupt verdict at open is not a rebuild" project/searchindex.go 's|return nil, asCorrupt(err)|return nil, err|' ./project -run 'TestDamagedSearchIndexIsRebuilt'

# A read-only knowledge base answers from its last generation.
mutant "a read-only knowledge base is opened as writable" sourcefacts/store/store.go 's|s.readOnly.Store(fileReadOnly(s.dbPath))|s.readOnly.Store(false)|' ./sourcefacts/store -run 'TestReadOnlyKnowledgeBase'
mutant "a read-only store's changed files are not reported" sourcefacts/store/snapshot.go 's|return sn.markPending(out, true), err|return out, err|' ./sourcefacts/store -run 'TestReadOnlyKnowledgeBase'
mutant "a read-only store's new files are not reported" sourcefacts/store/readonly.go 's|^\tif add {|\tif false {|' ./sourcefacts/store -run 'TestReadOnlyKnowledgeBase'
mutant "a read-only store keeps reporting files whose bytes are back" sourcefacts/store/readonly.go 's|maps.DeleteFunc(s.pending, func(p, _ string) bool { return checked(p) })|_ = checked|' ./sourcefacts/store -run 'TestReadOnlyKnowledgeBase'
mutant "a read-only store's Files show changed files as current" sourcefacts/store/snapshot.go 's|return sn.markPending(out, false), err|return out, err|' ./sourcefacts/store -run 'TestReadOnlyKnowledgeBase'
mutant "answers from a read-only knowledge base do not say what they cannot see" rlm.go 's|ans.NotCurrent = append(ans.NotCurrent, |_ = append(ans.NotCurrent, |' ./cmd/rlm -run 'TestReadOnlyKnowledgeBase'
mutant "status does not say the knowledge base is read-only" cmd/rlm/status.go 's|if s.ReadOnly {|if false {|' ./cmd/rlm -run 'TestReadOnlyKnowledgeBase'

# Embedder switches keep a bounded set of search indexes; identity is
# model, dimensions, endpoint and vector space.
mutant "the endpoint is not part of an embedder's identity" project/embedderid.go 's|h.WriteString(ep.Endpoint())|_ = ep|' ./project -run 'TestSearchIndexNamesTellEveryConfigurationApart'
mutant "the probe vector is not part of an embedder's identity" project/embedderid.go 's|h.Write(signs)|_ = signs|' ./project -run 'TestSearchIndexNamesTellEveryConfigurationApart'
mutant "an embedder's identity follows noise in its values" project/embedderid.go 's|if x > 0 {|if x > 0.5 {|' ./project -run 'TestSearchIndexNamesTellEveryConfigurationApart'
mutant "other snapshots' search indexes are all removed" project/searchindex.go 's|if rank >= keepEmbedders {|if rank >= 0 {|' ./project -run 'TestSwitchingEmbedderKeepsABoundedSetOfSearchIndexes'
mutant "each embedder keeps one search index" project/searchindex.go 's|keepPerEmbedder = 2|keepPerEmbedder = 1|' ./project -run 'TestSwitchingEmbedderKeepsABoundedSetOfSearchIndexes'
mutant "any number of embedders keep search indexes" project/searchindex.go 's|keepEmbedders   = 4|keepEmbedders   = 40|' ./project -run 'TestSwitchingEmbedderKeepsABoundedSetOfSearchIndexes'
mutant "a reused search index does not count as recently used" project/searchindex.go 's|os.Chtimes(searchPath, now, now)|_ = now|' ./project -run 'TestSwitchingEmbedderKeepsABoundedSetOfSearchIndexes'
mutant "a toolchain tree keeps its knowledge base in the user cache" project/searchindex.go 's/	if InToolchain(absRoot) {/	if false \&\& InToolchain(absRoot) {/' ./project -run TestToolchainTreesKeepTheirKnowledgeBaseInTheUserCache

# The soak (internal/soak, -short: 20 s): processes index, search and
# status on one knowledge base while a writer churns the tree; after every
# round the shared knowledge base answers as a fresh index.
K='./internal/soak -short -run TestSharedKnowledgeBaseAnswersAsAFreshIndexAfterEveryRound'
mutant "soak: a changed file of the same size is taken as unchanged" sourcefacts/store/validate.go 's|if r == nil \|\| !r.present \|\| r.hash != o.hash {|if r == nil \|\| !r.present \|\| r.hash.Len != o.hash.Len {|' $K
mutant "soak: a file under a removed directory stays in the snapshot" sourcefacts/store/validate.go 's|pl.work = append(pl.work, \&workItem{path: p, row: r, gone: true})|_ = r|' $K

# A search index taken by another project between its rename and its lock is made again.
mutant "openIndex makes a taken index again" project/searchindex.go 's#^const indexAttempts = 3#const indexAttempts = 1#' ./project -run 'TestAnIndexTakenBeforeItIsOpenedIsMadeAgain'
mutant "a taken index is told from a missing one" project/searchindex.go 's#err = fmt.Errorf("%w: %w", errIndexTaken, err)#_ = errIndexTaken#' ./project -run 'TestAnIndexTakenBeforeItIsOpenedIsMadeAgain'

# A knowledge base path that is a source file of the tree is refused
# (project/project.go notASourceFile).
mutant "a source file may be the knowledge base" project/project.go 's/	if n, _ := io.ReadFull(f, head); n == len(head) \&\& string(head) == sqliteHeader {/	if n, _ := io.ReadFull(f, head); n >= 0 || string(head) == sqliteHeader {/' ./project -run TestAKnowledgeBasePathThatIsASourceFileIsRefused

# A damaged search index found by a read is removed and made again
# (breaker F5: project.View, asCorrupt, rlm's search retry).
mutant "a damaged index found by a read is removed" project/project.go 's|	if c := asCorrupt(err); errors.Is(c, ErrCorruptIndex) {|	if c := asCorrupt(err); false \&\& errors.Is(c, ErrCorruptIndex) {|' . -run TestADamagedSearchIndexIsMadeAgainNotServed
mutant "data the backend never writes is damage" project/indexfile.go 's|	if errors.Is(err, embedded.ErrDamaged) \&\& !errors.Is(err, ErrCorruptIndex) {|	if false \&\& errors.Is(err, embedded.ErrDamaged) {|' . -run TestADamagedSearchIndexIsMadeAgainNotServed
mutant "a search over a damaged index runs again" rlm.go 's|	if errors.Is(err, project.ErrCorruptIndex) {|	if false {|' . -run TestADamagedSearchIndexIsMadeAgainNotServed
mutant "a body of unknown flags is damage" retrieval/embedded/bodytext.go 's|return fmt.Errorf("%w: document %q: body: unknown flags %#x", ErrDamaged, d.ID, flags)|return fmt.Errorf("document %q: body: unknown flags %#x", d.ID, flags)|' . -run TestADamagedSearchIndexIsMadeAgainNotServed

# A parser whose parse stopped (budget, ctx) is never pooled again:
# tree-sitter 0.25.0 aborts the process on its next parse when it stopped
# while balancing (sourcefacts/extract.go).
mutant "a stopped parser goes back to the pool" sourcefacts/extract.go 's|^\tif tree == nil {$|\tif tree == nil {\n\t\tw.parser.Reset()\n\t\treuse = true|' ./sourcefacts -run TestAParserWhoseParseStoppedIsNotUsedAgain
