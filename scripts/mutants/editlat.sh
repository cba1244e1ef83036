# Mutants for the one-file-edit latency work of issue 13 (docs/BENCHMARKS.md,
# "### One file edited → the next answer, ≤ 100 ms"; see scripts/mutants.sh).

# 1. An update splits the names it resolves with only the tree's words that
# are pieces of them: the same words as the whole vocabulary.
S='./internal/subwords -run TestPiecesAreAllSplitLooksUp'
mutant "a piece may end where the compound ends" internal/subwords/subwords.go 's|for j := i + MinWordBytes; j <= min(n, i+MaxWordBytes); j++ {|for j := i + MinWordBytes; j < min(n, i+MaxWordBytes); j++ {|' $S
mutant "a piece may be MinWordBytes long" internal/subwords/subwords.go 's|for j := i + MinWordBytes; j <= min(n, i+MaxWordBytes); j++ {|for j := i + MinWordBytes + 1; j <= min(n, i+MaxWordBytes); j++ {|' $S
V='./project -run TestTheWordsReadForSomeNamesSplitThemAsTheWholeVocabularyDoes'
mutant "only words some file still gives are read" project/namewords.go 's|WHERE files > 0 AND word IN|WHERE word IN|' $V
mutant "every part of a name is looked up" project/namewords.go 's|\t\t\tfor _, w := range subwords.Pieces(p) {|\t\t\tfor _, w := range subwords.Pieces(p[:min(len(p), 8)]) {|' $V
mutant "the names an update resolves are the ones looked up" project/resolve.go 's|\t\t\tnames = append(names, s.Name)|\t\t\tnames = append(names, s.Name[:0])|' ./project -run TestAnUpdateSplitsCompoundNamesAsAFreshBuildDoes

# 2. The versions of an index's sources (and the documents' content hashes)
# come back from SQLite as one packed string, byte for byte.
P='./retrieval/embedded -run TestSourceVersionsAndVersionsGiveBackExactlyTheStringsStored'
mutant "a packed pair is measured in bytes" retrieval/embedded/embedded.go 's|length(CAST(k AS BLOB))|length(k)|' $P
mutant "every packed pair is read" retrieval/embedded/embedded.go 's|\tfor ; rest != ""; rows++ {|\tfor ; rest != "" \&\& rows < 1; rows++ {|' $P

# 3. The knowledge base's fact counts (Stats, read by every Refresh) are kept
# between publishes on the Store's own connection and counted again after
# any other connection's commit.
C='./sourcefacts/store -run TestStatsCountsTheFactsOfEveryCommit'
mutant "a publish adds the facts it inserted" sourcefacts/store/writefile.go 's|\tps.delta.symbols += len(ff.Symbols)|\tps.delta.symbols += 0|' $C
mutant "a publish takes off the facts it deleted" sourcefacts/store/writefile.go 's|\t\tps.delta.symbols -= was.symbols|\t\tps.delta.symbols -= 0|' $C
mutant "another connection's commit makes Stats count again" sourcefacts/store/counts.go 's/if c.counts == nil || c.counts.version != v {/if c.counts == nil {/' $C
mutant "the kept counts follow this Store's publishes" sourcefacts/store/validate.go 's|\t\ts.addPublished(ps.delta)|\t\ts.state.counts = nil|' $C

# 4. Validation reads a source through the system calls alone (Linux): the
# same bytes, the same stat an *os.File gives, and nothing but a regular
# file is read.
R='./sourcefacts/store -run TestASourceIsReadAsTheFileSystemHasIt'
mutant "the raw stat's mtime has its nanoseconds" sourcefacts/store/source_linux.go 's|MtimeNS: st.Mtim.Nano()|MtimeNS: st.Mtim.Sec * 1e9|' $R
mutant "the raw stat has the inode" sourcefacts/store/source_linux.go 's|Ino: int64(st.Ino)}|Ino: 0}|' $R
mutant "only a regular file is read" sourcefacts/store/source_linux.go 's|st.Mode\&syscall.S_IFMT == syscall.S_IFREG, nil|true, nil|' $R

# 5. A publish's fingerprint is computed by merging the kept state's
# paths, in order, with the work: the fingerprint of the present files.
F='./sourcefacts/store -run TestTheFingerprintAfterAPublishIsThatOfThePresentFiles'
K='./sourcefacts/store -run TestTheStateKeptBetweenChecksFollowsEveryCommit'
mutant "a path both stored and worked on is written once" sourcefacts/store/check.go 's|i < len(order) \&\& order\[i\] < work\[j\].path:|i < len(order) \&\& order[i] <= work[j].path:|' $F
mutant "a stored row that is not present is left out" sourcefacts/store/check.go 's|case w == nil \&\& st.rows\[p\].present:|case w == nil:|' $F
mutant "work out of path order is sorted first" sourcefacts/store/check.go 's|\tif !slices.IsSortedFunc(work, byPath) {|\tif false \&\& !slices.IsSortedFunc(work, byPath) {|' $F
mutant "a new row's path joins the kept order" sourcefacts/store/check.go 's|\t\tif st.rows\[p\] == nil { // a new row|\t\tif false \&\& st.rows[p] == nil { // a new row|' $K
mutant "the loaded state's paths are in order" sourcefacts/store/validate.go 's|FROM files ORDER BY path`|FROM files ORDER BY id DESC`|' $K

# 6. A large file (its stored length over maxPooledRead) is hashed chunk by
# chunk through a pooled buffer; only changed bytes are read whole. (Not
# reading them there is an equivalent mutant: the publish reads and
# extracts a changed file that has no candidate, TestALargeFile... passes.)
H='./sourcefacts/store -run TestAFileHashedInChunksIsHashedAsWhenReadWhole'
L='./sourcefacts/store -run TestALargeFileIsCheckedByItsBytesWithoutABufferOfItsSize'
mutant "every chunk of a large file is hashed" sourcefacts/store/fileio.go 's|\t\tm, err := f.Read(buf\[:cap(buf)\])|\t\tm, err := f.Read(buf[:cap(buf)]); if n > 0 { err = io.EOF }|' $H
mutant "a chunked hash's length is every byte's" sourcefacts/store/fileio.go 's|\t\tn += int64(m)|\t\tn = int64(m)|' $H
mutant "a chunked hash keeps the stat read around it" sourcefacts/store/fileio.go '/^func hashSourceInto/,$ s|\tr.statAfter(f, before)|\t_ = before|' $H
mutant "an unchanged large file needs no buffer of its size" sourcefacts/store/validate.go 's|if r != nil \&\& r.present \&\& r.hash.Len > maxPooledRead {|if false \&\& r != nil \&\& r.present \&\& r.hash.Len > maxPooledRead {|' $L

# 7. The listing probes a directory (ignore files, virtual environment,
# build output, the parent's manifests) only for names its entries may hold.
N='./sourcefacts -run TestADirectoryIsProbedOnlyForTheNamesItsEntriesMayHold'
A='./sourcefacts -run TestIncludesAgreesWithListForEveryPathOfRandomTrees|TestListerSkipsExactlyWhatThePolicyNames|TestIgnoreFilesThatAreLinksOrTooLargeAreTreatedAsAbsent'
mutant "a probed name matches in either case" sourcefacts/listnames.go "s|\t\t\t\tc += 'a' - 'A'|\t\t\t\tc += 0|" $N
mutant "a name past ASCII makes every probe" sourcefacts/listnames.go 's|\t\t\t\treturn allNames|\t\t\t\tbreak|' $N
mutant "a longer name is no probed name" sourcefacts/listnames.go 's|\t\tif len(name) > maxProbedName {|\t\tif len(name) > maxProbedName+4 {|' $N
mutant "an ignore file the entries hold is read" sourcefacts/list.go 's|\t\tif !names.may(name) {|\t\tif names.may(name) {|' $A
mutant "a virtual environment is probed by its own entries" sourcefacts/list.go 's|\tif names.may("pyvenv.cfg") \&\& exists|\tif names.may("conda-meta") \&\& exists|' $A
mutant "build output's manifests are its parent's" sourcefacts/list.go 's|l.listDir(ctx, w, childAbs, child, rules, names)|l.listDir(ctx, w, childAbs, child, rules, 0)|' $A
mutant "a directory that cannot be read is probed for every name" sourcefacts/list.go 's|\tnames := allNames$|\tnames := dirNames(0)|' ./sourcefacts -run TestADirectoryThatCannotBeReadIsStillProbedForEveryName

# 8. The listing reads a directory through the system calls (Linux): what
# os.ReadDir gives.
D='./sourcefacts -run TestADirectoryIsReadAsOsReadDirReadsIt'
U='./sourcefacts -run TestAnEntryOfUnknownTypeIsTypedByLstat'
mutant "every batch of records is read" sourcefacts/dirent_linux.go 's|\t\tif out, err = appendDirents(out, abs, buf\[:n\]); err != nil {|\t\tif out, err = appendDirents(out, abs, buf[:n]); err != nil \|\| len(out) > 0 {|' $D
mutant "a link is a link" sourcefacts/dirent_linux.go 's|\t\t\te.typ = fs.ModeSymlink|\t\t\te.typ = 0|' $D
mutant "a name ends at its NUL" sourcefacts/dirent_linux.go 's|\t\t\t\tname = name\[:i\]|\t\t\t\tname = name[:i:i]|; s|\t\tfor i, c := range name {|\t\tfor i, c := range name[:0] {|' $D
mutant "the entries are in name order" sourcefacts/dirent.go 's|\treturn es$|\treturn slices.Clip(es)|; s|\tslices.SortFunc(es,|\t_ = slices.SortFunc[[]dirEntry]; if false { slices.SortFunc(es,|; s|strings.Compare(a.name, b.name) })|strings.Compare(a.name, b.name) }) }|' $D
mutant "a directory is opened as one" sourcefacts/dirent_linux.go 's/|syscall.O_DIRECTORY, 0)/, 0)/' $D
mutant "an entry of unknown type is lstat'ed" sourcefacts/dirent_linux.go 's|\t\t\te.typ = fi.Mode().Type()|\t\t\te.typ = fi.Mode().Type() \& 0|' $U
mutant "an entry gone before its lstat is left out" sourcefacts/dirent_linux.go 's|\t\t\t\tcontinue // gone since the directory was read|\t\t\t\tout = append(out, e); continue|' $U

# 9. A content hash is spelled without fmt (every refresh spells every
# file's): fmt's spelling.
C='./sourcefacts -run TestContentHashStringIsTheFormattedForm'
mutant "every hex digit is spelled" sourcefacts/facts.go 's|\tfor shift := 60; shift >= 0; shift -= 4 {|\tfor shift := 60; shift > 0; shift -= 4 {|' $C
mutant "a hex digit is four bits" sourcefacts/facts.go 's|hexDigits\[h.XXH64>>uint(shift)\&0xf\]|hexDigits[h.XXH64>>uint(shift)\&0x7]|' $C
mutant "the length is signed decimal" sourcefacts/facts.go 's|strconv.AppendInt(b, h.Len, 10)|strconv.AppendUint(b, uint64(h.Len), 10)|' $C
mutant "a record of inode 0 is left out" sourcefacts/dirent_linux.go 's#if binary.NativeEndian.Uint64(rec\[direntIno:\]) == 0 {#if false {#' ./sourcefacts -run TestARecordOfInodeZeroIsLeftOut
