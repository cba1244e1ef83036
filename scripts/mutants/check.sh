# Mutants for the snapshot check (issue 13: every file's bytes, faster):
# sourcefacts/store's validation, publish and Files (see scripts/mutants.sh).
S=./sourcefacts/store

# Exact bytes: a file whose bytes changed under an unchanged size, mtime
# and inode is seen as changed, by a parallel check too.
mutant "a changed byte under an unchanged stat is a change" sourcefacts/store/validate.go 's#if r == nil || !r.present || r.hash != o.hash {#if r == nil || !r.present || r.hash.Len != o.hash.Len {#' $S -run 'TestTheParallelCheckSeesEveryChangedByteUnderAnUnchangedStat'

# The publish reuses the state validation loaded only while no other
# connection committed (PRAGMA data_version).
mutant "a commit since the check's load makes the publish load again" sourcefacts/store/check.go 's#if v == pr.version {#if true {#' $S -run 'TestAPublishAfterAnotherConnectionCommittedLoadsTheStateAgain'
# The generation's fingerprint is computed from the state in the publish
# transaction: gone files leave it.
mutant "a gone file leaves the generation's fingerprint" sourcefacts/store/check.go 's#case w == nil \&\& st.rows\[p\].present:#case (w == nil || w.gone) \&\& st.rows[p].present:#' $S -run 'TestFilesOfALaterSnapshotEqualTheFilesReadWhole'

# Files from the cache of an earlier generation equal the files read whole.
mutant "dirty and stale rows are read again" sourcefacts/store/filescache.go "s#f.published_gen > ? OR f.status = 'stale' OR d.path IS NOT NULL#f.published_gen > ?#" $S -run 'TestFilesOfALaterSnapshotEqualTheFilesReadWhole'
mutant "cached dirty files are read again" sourcefacts/store/filescache.go 's#if volatile(&base\[i\]) {#if false \&\& volatile(\&base[i]) {#' $S -run 'TestFilesOfALaterSnapshotEqualTheFilesReadWhole'
mutant "new files are merged in path order" sourcefacts/store/filescache.go 's#^\t\tslices.SortFunc(out, func(a, b FileState) int { return strings.Compare(a.Path, b.Path) })#\t\t_ = strings.Compare#' $S -run 'TestFilesOfALaterSnapshotEqualTheFilesReadWhole'
mutant "cached files carry the new snapshot's identity" sourcefacts/store/filescache.go 's#^\t\tf.Snapshot = sn.id$#\t\t_ = f#' $S -run 'TestFilesOfALaterSnapshotEqualTheFilesReadWhole'
mutant "gone files leave the cached list" sourcefacts/store/filescache.go 's#^\t\tif gone\[f.Path\] {#\t\tif false \&\& gone[f.Path] {#' $S -run 'TestFilesOfALaterSnapshotEqualTheFilesReadWhole'

# Determinism: the publish writes in path order whatever the workers did.
mutant "the publish writes in path order" sourcefacts/store/validate.go 's#^\tslices.SortFunc(pl.work, func(a, b \*workItem) int { return strings.Compare(a.path, b.path) })#\t_ = 0#' $S -run 'TestTheCheckIsTheSameWhateverTheWorkersAndTheirScheduling'

# Cancellation: workers stop taking files once ctx is done.
mutant "a cancelled check stops reading" sourcefacts/store/store.go 's#if i >= n || ctx.Err() != nil {#if i >= n {#' $S -run 'TestACancelledCheckStopsReadingAndPublishesNothing'

# The state kept between checks (Store.prior): taken as it is only while
# no other connection committed, brought up to date by its own publish.
mutant "another connection's commit makes the next check load the state again" sourcefacts/store/check.go 's#if v == c.pr.version {#if true {#' $S -run 'TestTheStateKeptBetweenChecksFollowsEveryCommit'
mutant "the own publish's rows are read again into the kept state" sourcefacts/store/check.go 's#^\tmaps.Copy(st.rows, fresh)$#\tmaps.Copy(fresh, st.rows)#' $S -run 'TestTheStateKeptBetweenChecksFollowsEveryCommit'
mutant "the own publish updates the kept state" sourcefacts/store/validate.go 's#^\t\tpr.afterCommit(ctx, touched)$#\t\t_ = touched#' $S -run 'TestTheStateKeptBetweenChecksFollowsEveryCommit'
mutant "stat updates are read again into the kept state" sourcefacts/store/validate.go 's#^\t\t\ttouched = append(touched, u.path)$#\t\t\t_ = u#' $S -run 'TestTheStateKeptBetweenChecksFollowsEveryCommit|TestStatCache'

# The lister reads directories on several goroutines (sourcefacts/list.go).
mutant "List calls Match from one goroutine at a time" sourcefacts/list.go '/^func (l Lister) List(/,/^}/s#^\tif l.Match != nil {$#\tif false \&\& l.Match != nil {#' ./sourcefacts -run 'TestListCallsMatchFromOneGoroutineAtATimeAndListsInPathOrder'
mutant "List waits for the directories listed on other goroutines" sourcefacts/list.go 's#^\tw.wg.Wait()$#\t_ = 0#' ./sourcefacts -run 'TestListCallsMatchFromOneGoroutineAtATimeAndListsInPathOrder'
