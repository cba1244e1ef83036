# Mutants for the project walker: sourcefacts/list.go (Lister), its use by
# sourcefacts.Walk and by the store (see scripts/mutants.sh).
L=sourcefacts/list.go
P=./sourcefacts
S=./sourcefacts/store
mutant "VCS dirs skipped even with IncludeHidden" $L 's|".git": true, ".hg": true|".git": false, ".hg": true|' $P -run TestListerSkipsExactlyWhatThePolicyNames
mutant ".rlm skipped even with IncludeHidden" $L 's|"\.rlm": *true|".rlm": false|' $P -run TestListerSkipsExactlyWhatThePolicyNames
mutant "testdata always skipped" $L 's|"testdata": true|"testdata": false|' $P -run TestListerSkipsExactlyWhatThePolicyNames
mutant "__pycache__ skipped in every mode" $L 's|"__pycache__": true|"__pycache__": false|' $S -run TestBuildOutputVirtualEnvsAndCachesAreSkippedInEveryMode
mutant "hidden files skipped" $L '/^func (l Lister) skipFile/,/^}/s|!l.IncludeHidden \&\& strings.HasPrefix|l.IncludeHidden \&\& strings.HasPrefix|' $P -run TestListerSkipsExactlyWhatThePolicyNames
mutant "vendor skipped unless IncludeVendor" $L 's|!l.IncludeVendor \&\& name == "vendor"|l.IncludeVendor \&\& name == "vendor"|' $P -run TestListerSkipsExactlyWhatThePolicyNames
mutant "pyvenv.cfg marks a virtual env in every mode" $L 's|if names.may("pyvenv.cfg") \&\& exists(filepath.Join(dir, "pyvenv.cfg")) {|if false \&\& exists(filepath.Join(dir, "pyvenv.cfg")) {|' $S -run TestBuildOutputVirtualEnvsAndCachesAreSkippedInEveryMode
mutant "conda-meta marks a virtual env" $L 's|return err == nil \&\& fi.IsDir()|return false \&\& err == nil \&\& fi.IsDir()|' $P -run TestListerSkipsExactlyWhatThePolicyNames
mutant "a build manifest makes target/ build output in every mode" $L 's|if parent.may(m) \&\& exists(filepath.Join(up, m)) {|if false \&\& exists(filepath.Join(up, m)) {|' $S -run TestBuildOutputVirtualEnvsAndCachesAreSkippedInEveryMode
mutant ".ignore files are read" $L 's|var ignoreFiles = \[\]string{".gitignore", ".ignore"}|var ignoreFiles = []string{".gitignore"}|' $S -run TestGitignoreIgnoreAndInfoExcludeAreHonouredInEveryMode
mutant ".ignore overrides .gitignore" $L 's|var ignoreFiles = \[\]string{".gitignore", ".ignore"}|var ignoreFiles = []string{".ignore", ".gitignore"}|' $S -run TestGitignoreIgnoreAndInfoExcludeAreHonouredInEveryMode
mutant ".git/info/exclude is read" $L 's|".git", "info", "exclude"|".git", "info", "exclude.not"|' $S -run TestGitignoreIgnoreAndInfoExcludeAreHonouredInEveryMode
mutant "patterns are relative to their file's directory" $L 's|gitignore.ParsePattern(line, domain)|gitignore.ParsePattern(line, nil)|' $S -run TestGitignoreIgnoreAndInfoExcludeAreHonouredInEveryMode
mutant "nested ignore files are read by List" $L '/^func (l Lister) listDir/,/^}/s|rules = l.withDirRules(rules, abs, comps, names)|_ = names|' $S -run TestGitignoreIgnoreAndInfoExcludeAreHonouredInEveryMode
mutant "an excluded directory is not entered" $L '/^func (l Lister) skipByName/,/^}/s|return gitignore.NewMatcher(rules).Match(comps, true)|return false|' $S -run TestGitignoreIgnoreAndInfoExcludeAreHonouredInEveryMode
mutant "IncludeIgnored brings ignored files back" $L '/^func (l Lister) withDirRules/,/^}/s|if l.IncludeIgnored {|if false {|' $S -run TestIncludeIgnoredBringsBackWhatIgnoreFilesExcludeInEveryMode
mutant "Walk passes IncludeIgnored" sourcefacts/walk.go 's|IncludeIgnored:   opts.IncludeIgnored,||' $S -run TestIncludeIgnoredBringsBackWhatIgnoreFilesExcludeInEveryMode
mutant "Includes reads the root's ignore files" $L 's|rules := l.withDirRules(l.rootRules(root), root, nil, allNames)|rules := l.rootRules(root)|' $P -run TestIncludesAgreesWithListForEveryPathOfRandomTrees
mutant "Includes reads the ancestors' ignore files" $L 's|rules = l.withDirRules(rules, dir, comps\[:i+1\], allNames)|_ = dir|' $P -run TestIncludesAgreesWithListForEveryPathOfRandomTrees
mutant "Includes refuses paths under a link to a directory" $L 's|err == nil \&\& !fi.IsDir() {|err == nil \&\& false \&\& !fi.IsDir() {|' $P -run TestIncludesJudgesPathsThatDoNotExistAndRejectsUncleanOnes
mutant "Includes refuses an existing non-regular path" $L '/^func (l Lister) Includes/,/^}/s|^\treturn false$|\treturn true|' $P -run TestIncludesAgreesWithListForEveryPathOfRandomTrees
mutant "Includes refuses unclean paths" $L 's|if p == "." \|\| !fs.ValidPath(p) {|if p == "" {|' $P -run TestIncludesJudgesPathsThatDoNotExistAndRejectsUncleanOnes
mutant "a symlinked ignore file is absent" $L '/^func readPatterns/,/^}/s|err != nil \|\| !fi.Mode().IsRegular() {|err != nil \|\| fi == nil {|' $P -run TestIgnoreFilesThatAreLinksOrTooLargeAreTreatedAsAbsent
mutant "an oversized ignore file is absent" $L 's|len(b) > MaxIgnoreFileBytes {|len(b) > 2*MaxIgnoreFileBytes {|' $P -run TestIgnoreFilesThatAreLinksOrTooLargeAreTreatedAsAbsent
# The hint filter in validate.go only saves reading ignored files: the publish
# re-read (readListed) drops them anyway, so breaking it alone changes nothing
# observable (an equivalent mutant, checked); the guarantee is the next line's.
mutant "Flush and the publish re-read index only included paths" sourcefacts/store/fileio.go 's|	if !s.lister.Includes(s.root, rel) {|	if false \&\& !s.lister.Includes(s.root, rel) {|' $S -run TestHarnessWriteToAnIgnoredFileIndexesNothing
mutant "unindexed dirty paths are shown only if included" sourcefacts/store/snapshot.go 's|return s.lister.Includes(s.root, p) }|return true }|' $S -run TestHarnessWriteToAnIgnoredFileIndexesNothing
mutant "links out of the root are not listed" sourcefacts/list.go 's|	return err == nil \&\& rel != ".." \&\& !strings.HasPrefix(rel, ".."+string(filepath.Separator)) \&\& !filepath.IsAbs(rel)|	return err == nil \&\& rel != "-"|' ./sourcefacts -run TestLinksToFilesOutsideTheRootAreNotListed

# The warm check's read buffers.
mutant "a matching file's read buffer is reused" sourcefacts/store/validate.go 's#\t\t\ts.readBufs.put(buf)#\t\t\t_ = buf#' ./sourcefacts/store -run 'TestAWarmCheckOfAnUnchangedTreeReusesItsReadBuffers'

# A file or directory whose name is not valid UTF-8 is a fault, never
# silently dropped (sourcefacts/list.go ErrNameNotUTF8).
mutant "a file named in invalid UTF-8 is dropped silently" sourcefacts/list.go '/^		if !utf8.ValidString(name) {$/,/continue/ s|			faults = append(faults, PathFault{Path: rel, Err: ErrNameNotUTF8})|			_ = rel|' ./sourcefacts -run TestListRecordsEveryPathItCannotWalkAndListsTheRest
mutant "a directory named in invalid UTF-8 is entered" sourcefacts/list.go '/^			if !utf8.ValidString(name) {$/,/continue/ s|				continue|				_ = 0|' ./sourcefacts -run TestListRecordsEveryPathItCannotWalkAndListsTheRest
