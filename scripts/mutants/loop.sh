# Mutants for the completion loop (see scripts/mutants.sh).
mutant "unbound catalog tools are not offered" loop/offer.go 's|			out = append(out, denial{u.ID, denyUnbound})|			_ = denyUnbound|' ./loop -run TestCatalogToolsOnlyReachTheModel
mutant "catalog tools with another schema are not offered" loop/offer.go 's|		case !sameSchema(u.Schema, specs\[u.ID\]):|		case false:|' ./loop -run TestCatalogToolsOnlyReachTheModel
mutant "tools the policy forbids are not offered" loop/offer.go 's|		case policy.Allows(t) != nil:|		case false \&\& policy.Allows(t) != nil:|' ./loop -run TestCatalogToolsOnlyReachTheModel
mutant "policy capabilities reach the compile" loop/run.go 's|	for _, cp := range r.opts.Policy.Capabilities {|	for _, cp := range []string{} {|' ./loop -run TestCapabilityDeniedToolIsNotVisible
mutant "recurse not offered at the depth limit" loop/offer.go 's|	case depth >= r.limits.Depth:|	case depth > r.limits.Depth:|' ./loop -run TestRecursionStopsAtTheDepthLimit
mutant "negative depth disables recursion" loop/offer.go 's|		out = append(out, denial{ToolRecurse, denyNoRecursion})|		_ = denyNoRecursion|' ./loop -run TestRecursionStopsAtTheDepthLimit
mutant "retrieve capped by the host's evidence limit" loop/builtins.go 's|		limit = min(int(a.Limit), limit)|		limit = int(a.Limit)|' ./loop -run TestRetrieveReturnsAtMostTheHostsEvidenceLimit
mutant "retrieve limit decoded as a number" loop/builtins.go 's|	Limit float64 `json:"limit"`|	Limit int `json:"limit"`|' ./loop -run TestRetrieveReturnsAtMostTheHostsEvidenceLimit
mutant "retriever errors hidden from the model" loop/builtins.go 's|		return nil, \&tools.ModelError{Message: "retrieve: the search failed; try another query, or answer from the evidence you have and say what is missing", Err: err}|		return nil, tools.ModelErrorf("retrieve: %v", err)|' ./loop -run TestRetrieverErrorsReachTheModelAsAFixedSentence
mutant "citations re-read at the end" loop/evidence.go 's|				cur = err == nil|				cur = err == nil \|\| true|' ./loop -run TestEvidenceWhoseFileChangedBeforeTheAnswerIsNotCited
mutant "a bare path does not cite" loop/evidence.go 's|	return bare \&\& mentionsSymbol(answer, e.Symbol)|	return bare|' ./loop -run TestAnAnswerCites
mutant "a symbol is matched as a whole word" loop/evidence.go 's|		if (i == 0 \|\| !isIdentByte(s\[i-1\])) \&\& (end == len(s) \|\| !isIdentByte(s\[end\])) {|		if _ = end; true {|' ./loop -run TestAnAnswerCites
mutant "streamed calls set apart" loop/run.go 's|					r.opts.OnDelta(StreamSeparator)|					_ = StreamSeparator|' ./loop -run TestTextStreamedBeforeAToolCallIsSetApart
mutant "negative token counts clamped" loop/budget.go 's|	clamp := func(n int64) int { return int(min(max(n, 0), MaxReportedTokens)) }|	clamp := func(n int64) int { return int(n) }|' ./loop -run TestTokenCountsFromTheServerAreClamped
mutant "rlm ask checks the key variable before indexing" cmd/rlm/route.go 's|	if \*c.keyEnv != "" \&\& os.Getenv(\*c.keyEnv) == "" {|	if _ = os.Getenv; false {|' ./cmd/rlm -run TestAskWithAnUnsetKeyVariableFailsBeforeIndexing
mutant "rlm ask never prints control sequences" cmd/rlm/ask.go 's|			fmt.Fprint(stdout, termsafe.String(s))|			fmt.Fprint(stdout, s)|' ./cmd/rlm -run TestAskNeverPrintsTheModelsControlSequences
mutant "code cannot close its evidence fence" loop/evidence.go 's|		n = max(n, run+1)|		n = max(n, 3)|' ./loop -run TestSourceFilesCannotWriteSectionsOfThePrompt
mutant "file names cannot write prompt lines" loop/evidence.go 's|	return strconv.Quote(s)$|	return strconv.Quote(s)[:0] + s|' ./loop -run TestSourceFilesCannotWriteSectionsOfThePrompt
mutant "a repeated tool-call id does not run" loop/run.go 's|			if ids\[tc.ID\] {|			if ids[tc.ID] \&\& false {|' ./loop -run TestTwoToolCallsUnderOneIDRunOnlyTheFirst
mutant "an empty answer is not answered" loop/run.go 's|case strings.TrimSpace(resp.Content) == "":|case false \&\& strings.TrimSpace(resp.Content) == "":|' ./loop -run TestAnEmptyAnswerIsNotAnswered
mutant "a white-space answer is empty" loop/run.go 's|case strings.TrimSpace(resp.Content) == "":|case strings.TrimSpace("") == resp.Content:|' ./loop -run TestAnEmptyAnswerIsNotAnswered

# A refusal's text is the caller's, not the trace's.
mutant "the trace holds a refusal's size, not its text" loop/run.go 's#r.trace.add(Event{Kind: EventStop, Depth: c.depth, Stop: string(s), Detail: traced})#r.trace.add(Event{Kind: EventStop, Depth: c.depth, Stop: string(s), Detail: detail})#' ./loop -run 'TestARefusalIsTheCallersAndTheTraceHoldsOnlyItsSize'

# Evidence read back once per file (loop/evidence.go).
mutant "the hits of one file share one read" loop/evidence.go 's#^		f, ok := read\[k\]$#		f, ok := file{}, false#' ./loop -run TestEachFileIsReadOnceForItsHits
mutant "citations check each file once" loop/evidence.go 's#^			cur, ok := checked\[k\]$#			cur, ok := false, false#' ./loop -run TestEachFileIsReadOnceForItsHits
mutant "a shared read keeps a stale file's hits out" loop/evidence.go 's#^		if !f.current {$#		if false \&\& !f.current {#' ./loop -run 'TestEachFileIsReadOnceForItsHits|TestRetrieveDuringRecursionSeesAnEditBetweenTurns'
