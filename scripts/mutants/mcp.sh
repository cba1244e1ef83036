# Mutants for mcp/, rlm mcp and the façade's writes (see scripts/mutants.sh).
mutant "tools the policy refuses are not listed" mcp/server.go 's|if policy.Allows(t) != nil {|if false {|' ./mcp -run TestWritesAreOffUnlessAllowed
mutant "writes allowed only with AllowWrite" mcp/server.go 's|if opts.AllowWrite {|if true {|' ./mcp -run 'TestWritesAreOffUnlessAllowed|TestTheExecutorRefusesWritesThePolicyDoesNotAllow'
mutant "calls get the client's cancellation" mcp/server.go 's|s.exec.Execute(ctx, tools.Call|s.exec.Execute(context.WithoutCancel(ctx), tools.Call|' ./mcp -run TestASlowCallHonoursTheClientsCancellation
mutant "a refused patch carries a structured conflict" mcp/server.go 's|errors.AsType\[\*rlm.ConflictError\](o.Err); ok {|errors.AsType[*rlm.ConflictError](o.Err); false \&\& ok {|' ./mcp -run TestAConflictingPatchIsRefusedAndNothingChanges
mutant "HTTP refuses cross-origin requests" mcp/http.go 's|return http.NewCrossOriginProtection().Handler(\&sessionCap{|return (\&sessionCap{|' ./mcp -run TestStreamableHTTPServesLoopbackClientsOnly
mutant "Serve ends cleanly when its context ends" mcp/server.go 's|return nil // stopped by the caller (rlm mcp: an interrupt)|return err|' ./mcp -run TestServeStopsCleanlyWhenItsContextEnds
mutant "schemas refuse unknown arguments" mcp/tools.go 's|"required":\["query"\],"additionalProperties":false}`)|"required":["query"]}`)|' ./mcp -run TestBadArgumentsGetClearErrors
mutant "shortcut names are identifiers, not words" mcp/tools.go 's|^const namePattern = .*|const namePattern = `^.{1,200}$`|' ./mcp -run TestBadArgumentsGetClearErrors
mutant "host errors are not shown to the client" mcp/tools.go 's#if errors.Is(err, s) {#if errors.Is(err, s) || true {#' ./mcp -run TestHostErrorsAreNotShownToTheClient
mutant "search filters drop what does not match" mcp/tools.go 's|case !f.keeps(hit):|case false:|' ./mcp -run TestSearchFiltersNarrowTheHits
mutant "filtered search keeps the limit" mcp/tools.go 's|case len(res.Hits) < limit:|case true:|' ./mcp -run TestSearchFiltersNarrowTheHits
mutant "status moves the search index to what it reports" mcp/tools.go 's|_, err := s.proj.Refresh(ctx); err != nil {|err := error(nil); err != nil {|' ./mcp -run TestAConflictingPatchIsRefusedAndNothingChanges
mutant "hit ids name path, lines and hash" mcp/read.go 's|"%s:%d-%d@%s", path, start, end, hash|"%s:%d:%d@%s", path, start, end, hash|' ./mcp -run TestSearchAndItsShortcutsAnswerLikeTheGoAPI
mutant "read by id checks the hit's bytes" mcp/read.go 's|if a.ID == "" {|if true {|' ./mcp -run 'TestAnEditThroughApplyPatchIsSeenByTheNextSearch|TestEveryAnswerReflectsTheFilesAtCallTime'
mutant "read by path validates the files first" mcp/read.go 's|if _, err := s.proj.Refresh(ctx); err != nil {|if false {|' ./mcp -run TestEveryAnswerReflectsTheFilesAtCallTime
mutant "paths stay inside the root" mcp/read.go 's|tools.ResolveInside(s.proj.Root(), filepath.FromSlash(p)); err != nil {|tools.ResolveInside(s.proj.Root(), filepath.FromSlash(p)); false \&\& err != nil {|' ./mcp -run 'TestBadArgumentsGetClearErrors|TestAConflictingPatchIsRefusedAndNothingChanges'
mutant "read returns at most MaxReadLines lines" mcp/read.go 's|start, end, MaxReadLines, MaxReadLineBytes)|start, end, 1<<30, MaxReadLineBytes)|' ./mcp -run TestReadReturnsAHitsLinesFromTheVerifiedFile
mutant "read clips long lines" mcp/read.go 's|start, end, MaxReadLines, MaxReadLineBytes)|start, end, MaxReadLines, 1<<30)|' ./mcp -run TestReadReturnsAHitsLinesFromTheVerifiedFile
mutant "a patch is published before it returns" edit.go 's|p.proj.Store().Flush(ctx)|p.proj.Store().Stats(ctx)|' ./mcp -run TestAnEditThroughApplyPatchIsSeenByTheNextSearch
mutant "a patch moves the search index" edit.go 's|if _, err := p.Refresh(ctx); err != nil {|if false {|' ./mcp -run TestAnEditThroughApplyPatchIsSeenByTheNextSearch
mutant "hits carry signature and doc" planner/search.go 's|Signature: d.Signature, Doc: d.Doc, ||' ./mcp -run TestSearchAndItsShortcutsAnswerLikeTheGoAPI
mutant "content hashes parse strictly" sourcefacts/facts.go 's/|| len(length) > 1 \&\& length\[0\] == .0./|| false/' ./sourcefacts -run TestContentHashStringParsesBackExactly
mutant "Lines returns at most maxLines lines" internal/textclip/textclip.go 's|start+maxLines-1)|start+maxLines)|' ./internal/textclip -run TestLinesCutsAClampedBoundedRange
mutant "rlm mcp --allow-write offers apply_patch" cmd/rlm/mcp.go 's|AllowWrite: \*allowWrite|AllowWrite: *allowWrite \&\& false|' ./cmd/rlm -run TestMCPServesStdioWithTheToolsItsFlagsAllow
mutant "rlm mcp --http serves loopback only" cmd/rlm/mcp.go 's/(ip == nil || !ip.IsLoopback())/(ip == nil || !ip.IsLoopback()) \&\& false/' ./cmd/rlm -run TestMCPRefusesANonLoopbackHTTPAddress
mutant "npm installs the MCP SDK with chromadb" scripts/chroma-server.sh 's|-f "$ROOT/node_modules/@modelcontextprotocol/sdk/package.json" ]]|true ]]|' . -run TestChromaScriptInstallsEveryNpmPackageTheTestsUse
mutant "ReadSource reads only listed files" project/source.go 's|	if !p.Listed(rel) {|	if false {|' ./project -run TestOnlyTheProjectsFilesCanBeReadOrPatched
mutant "ApplyPatch writes only listed files" project/patch.go 's|	if !p.Listed(rel) {|	if false {|' ./project -run TestOnlyTheProjectsFilesCanBeReadOrPatched
mutant "a symbolic link's target must be listed too" project/source.go 's|	return p.listedName(filepath.ToSlash(t))|	return true|' ./project -run TestOnlyTheProjectsFilesCanBeReadOrPatched
mutant "the knowledge base beside the sources is not a project file" project/source.go 's#	return !strings.HasPrefix(name, p.kbName) \&\&#	return true || !strings.HasPrefix(name, p.kbName) \&\&#' ./project -run TestOnlyTheProjectsFilesCanBeReadOrPatched
mutant "opening a FIFO never blocks" project/open_unix.go 's/os.O_RDONLY|syscall.O_NONBLOCK/os.O_RDONLY|0*syscall.O_NONBLOCK/' ./project -run TestOpeningAFIFONeverBlocks
mutant "only regular files are read" project/source.go 's|	if !fi.Mode().IsRegular() {|	if !fi.Mode().IsRegular() \&\& false {|' ./project -run TestOpeningAFIFONeverBlocks
mutant "a diff's headers must name the patched file" project/patch.go 's|	return fmt.Sprintf("the header %q names another file than %s", textclip.Clean(line, 120), rel)|	_ = 0|' ./project -run TestAPatchMustNameItsFileAndKeepCharactersWhole
mutant "binary patches are refused" project/patch.go 's|len(files) == 1 \&\& files\[0\].IsBinary {|len(files) == 1 \&\& files[0].IsBinary \&\& false {|' ./project -run TestAPatchMustNameItsFileAndKeepCharactersWhole
mutant "edits keep UTF-8 sequences whole" project/patch.go 's|	inside := func(i int) bool { return i > 0 \&\& i < len(src) \&\& !utf8.RuneStart(src\[i\]) }|	inside := func(i int) bool { return false }|' ./project -run TestAPatchMustNameItsFileAndKeepCharactersWhole
mutant "files that are not UTF-8 take edits at any byte" project/patch.go 's|	if !utf8.Valid(src) {|	if false {|' ./project -run TestAPatchMustNameItsFileAndKeepCharactersWhole
mutant "apply_patch goes through the project's listing" edit.go 's|p.proj.ApplyPatch(ctx, path, want, patch)|p.proj.Store().ApplyPatch(ctx, path, want, patch)|' ./mcp -run TestFilesOutsideTheProjectAreIndistinguishableFromAbsentOnes
mutant "read by id goes through the project's listing" project/source.go 's|	if !p.Listed(rel) {|	if false {|' ./mcp -run TestFilesOutsideTheProjectAreIndistinguishableFromAbsentOnes
mutant "read's id pattern takes a path with a newline" mcp/read.go 's|const idPattern = `^\[\\\\s\\\\S\]+:|const idPattern = `^.+:|' ./mcp -run TestReadAgreesWithItsOwnIDsAndCountsLinesExactly
mutant "hit ids start at line 1" mcp/read.go 's|:\[1-9\]\[0-9\]{0,8}-\[1-9\]\[0-9\]{0,8}@|:[0-9]{1,9}-[0-9]{1,9}@|' ./mcp -run TestReadAgreesWithItsOwnIDsAndCountsLinesExactly
mutant "a final newline ends the last line" mcp/read.go "s|if len(src) > 0 \&\& src\[len(src)-1\] != '\\\\n' {|if true {|" ./mcp -run TestReadAgreesWithItsOwnIDsAndCountsLinesExactly
mutant "an empty file reads as no lines" mcp/read.go 's|	if lines == 0 \&\& start == 1 {|	if false {|' ./mcp -run TestReadAgreesWithItsOwnIDsAndCountsLinesExactly
mutant "read never passes the file's last line" mcp/read.go 's/	if end == 0 || end > lines {/	if end == 0 {/' ./mcp -run TestReadAgreesWithItsOwnIDsAndCountsLinesExactly
mutant "integer arguments accept 1.0 and 1e2" mcp/tools.go 's|func (n \*integer) UnmarshalJSON|func (n *integer) unmarshalJSON|' ./mcp -run TestReadAgreesWithItsOwnIDsAndCountsLinesExactly
mutant "logged causes are clipped" mcp/server.go 's|textclip.Clean(out.Err.Err.Error(), MaxLoggedCauseBytes)|textclip.Clean(out.Err.Err.Error(), 1<<30)|' ./mcp -run TestTheLogKeepsFailedCallsShort
mutant "stdio answers a malformed line and goes on" mcp/stdio.go 's|		if len(line) > 0 \&\& f.valid(line) {|		if len(line) > 0 {|' ./mcp -run TestAMalformedLineIsAnsweredAndTheSessionGoesOn
mutant "stdio bounds a line" mcp/stdio.go 's|			if len(line)+len(chunk) > MaxLineBytes+1 {|			if false {|' ./mcp -run TestAMalformedLineIsAnsweredAndTheSessionGoesOn
mutant "stdio refuses batches the protocol version does not allow" mcp/stdio.go 's#	return slices.Contains(sdk.SupportedProtocolVersions(), f.version) \&\& f.version < "2025-06-18"#	return true || slices.Contains(sdk.SupportedProtocolVersions(), "")#' ./mcp -run TestAMalformedLineIsAnsweredAndTheSessionGoesOn
mutant "stdio passes batches the protocol version allows" mcp/stdio.go 's|	return slices.Contains(sdk.SupportedProtocolVersions(), f.version) \&\& f.version < "2025-06-18"|	return false \&\& slices.Contains(sdk.SupportedProtocolVersions(), "")|' ./mcp -run TestAMalformedLineIsAnsweredAndTheSessionGoesOn
mutant "a refused request keeps its id" mcp/stdio.go 's|			f.refuse(requestID(line), jsonrpc.CodeInvalidRequest|			f.refuse(nil, jsonrpc.CodeInvalidRequest|' ./mcp -run TestAMalformedLineIsAnsweredAndTheSessionGoesOn
mutant "a failed embedder skips its step with a note" planner/search.go 's|errors.AsType\[\*retrieval.UnavailableError\](err); ok \&\& ctx.Err() == nil {|errors.AsType[*retrieval.UnavailableError](err); ok \&\& false {|' ./mcp -run TestADeadEmbedderStopsOnlyTheVectorSteps
mutant "a failed embedder leaves an index without vectors" project/searchindex.go 's/	if !vectors || !unavailable || ctx.Err() != nil {/	if true || !unavailable {/' ./project -run TestADeadEmbedderLeavesAnIndexWithoutVectorsUntilItAnswers
mutant "a failed embedder does not stop status and read" project/searchindex.go 's/	if !vectors || !unavailable || ctx.Err() != nil {/	if true || !unavailable {/' ./mcp -run TestADeadEmbedderStopsOnlyTheVectorSteps
mutant "the embedder's note never quotes its cause" project/embedderfail.go 's|		return "error"|		return err.Error()|' ./mcp -run TestADeadEmbedderStopsOnlyTheVectorSteps
mutant "the embedder's note names a provider failure without its message" project/embedderfail.go 's|		return fmt.Sprintf("%s %d", pe.Kind, pe.Status)|		return pe.Message|' ./project -run TestADeadEmbedderLeavesAnIndexWithoutVectorsUntilItAnswers
mutant "an index without vectors still offers vector steps" project/embedderfail.go 's|Capabilities() retrieval.Capabilities { return n.caps }|Capabilities() retrieval.Capabilities { return n.Backend.Capabilities() }|' ./project -run TestADeadEmbedderLeavesAnIndexWithoutVectorsUntilItAnswers
mutant "a dead embedder is not retried on every refresh" project/embedderfail.go 's|	return ok \&\& time.Since(n.since) >= after|	return ok \&\& n != nil|' ./project -run TestADeadEmbedderLeavesAnIndexWithoutVectorsUntilItAnswers
mutant "vectors come back once the embedder answers" project/embedderfail.go 's|	return ok \&\& time.Since(n.since) >= after|	return false \&\& ok \&\& n != nil|' ./project -run TestADeadEmbedderLeavesAnIndexWithoutVectorsUntilItAnswers
mutant "status says why there are no vectors" mcp/tools.go 's|, Vectors: s.proj.VectorsUnavailable()}|}|' ./mcp -run TestADeadEmbedderStopsOnlyTheVectorSteps
mutant "HTTP sessions are capped" mcp/http.go 's|	if c.open()+c.admitting >= c.max {|	if false {|' ./mcp -run TestHTTPSessionsAreCappedAndIdleOnesClosed
mutant "idle HTTP sessions are closed" mcp/http.go 's|, SessionTimeout: idle})|})|' ./mcp -run TestHTTPSessionsAreCappedAndIdleOnesClosed
mutant "only HTTP sessions count against the cap" mcp/http.go 's|		if ss.ID() != "" {|		if ss != nil {|' ./mcp -run TestHTTPSessionsAreCappedAndIdleOnesClosed
mutant "rlm mcp refuses session limits that are not positive" cmd/rlm/mcp.go 's/	if \*maxSessions < 1 || \*sessionIdle <= 0 {/	if false \&\& (*maxSessions < 1 || *sessionIdle <= 0) {/' ./cmd/rlm -run TestMCPSessionLimitsMustBePositive
mutant "rule resources are described by their concern" mcp/resources.go 's|	what, ok := concerns\[concern\]|	what, ok := concerns["retrieval"]|' ./mcp -run TestResourcesServeTheSnapshotAndTheRuleFiles
mutant "a rule file both engines load is one resource" mcp/resources.go 's|		if f, ok := files\[uri\]; ok {|		if f, ok := files[uri]; ok \&\& f == nil {|' ./mcp -run TestResourcesServeTheSnapshotAndTheRuleFiles
mutant "the compiler's rule files keep their concern folder" mcp/resources.go 's|			name := "prompt/" + src.Name|			name := src.Name|' ./mcp -run TestResourcesServeTheSnapshotAndTheRuleFiles
mutant "rlm search prints the steps it skipped" cmd/rlm/output.go 's|	for _, n := range a.Notes {|	for _, n := range a.Notes[:0] {|' ./cmd/rlm -run TestSearchWithADeadEmbedderSaysWhatItSkipped
mutant "rlm warns when the index has no vectors" cmd/rlm/flags.go 's|	if err == nil \&\& p.VectorsUnavailable() != "" {|	if false {|' ./cmd/rlm -run TestSearchWithADeadEmbedderSaysWhatItSkipped

# At the session cap a new session waits briefly for a closing one to leave (the SDK drops it from Sessions a moment after closing it).
mutant "a new session waits for a closing one at the cap" mcp/http.go 's#^const closingGrace = 50 \* time.Millisecond#const closingGrace = 0#' ./mcp -run 'TestHTTPSessionsAreCappedAndIdleOnesClosed' -count=20

# Every request read before stdin ends is answered before the session
# ends (mcp/stdio.go: lineFilter waits, syncWriter settles).
mutant "the end of input is not held for open requests" mcp/stdio.go 's|				f.out.waitAnswered(MaxDrainWait)|				_ = MaxDrainWait|' ./mcp -run TestEveryRequestReadBeforeTheInputEndsIsAnswered
mutant "a tool call is not awaited" mcp/stdio.go 's|		f.out.expect(msg)\n		return true|XX|; /^		f.noteVersion(msg)$/{n;s|^		f.out.expect(msg)$|		_ = msg|}' ./mcp -run TestEveryRequestReadBeforeTheInputEndsIsAnswered

# A kinds filter names kinds that exist (mcp/tools.go: filter.check).
mutant "an unknown kind is refused" mcp/tools.go 's|"items":{"type":"string","pattern":"` + kindPattern() + `"}|"items":{"type":"string"}|' ./mcp -run TestAnUnknownKindIsRefusedNotFilteredToNothing
