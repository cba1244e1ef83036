# Mutants for the planner, project, façade and CLI (see scripts/mutants.sh).
mutant "gap decoded from outcome events" planner/decode.go 's|o.gaps = append(o.gaps, engine.FormatValue(g.Args\[0\]))|_ = g|' ./planner -run 'TestRenamedRuleIDs|TestGapAndResolution'
mutant "resolution decoded from outcome events" planner/decode.go 's|o.resolved = \&Resolution{From: from, To: to, Rule: rule}|_, _, _ = from, to, rule|' ./planner -run TestGapAndResolution
mutant "unknown role refused" planner/decode.go 's|if !ok \|\| !slices.Contains(bridge.Roles, role) {|if !ok {|' ./planner -run TestStepsOutsideTheVocabulary
mutant "unknown strategy refused" planner/decode.go 's|if !ok \|\| !slices.Contains(bridge.StrategyNames(), strategy) {|if !ok {|' ./planner -run TestStepsOutsideTheVocabulary
mutant "step argument values checked" bridge/steps.go 's|if a.Values != nil \&\& !slices.Contains(a.Values, value) {|if false \&\& !slices.Contains(a.Values, value) {|' ./planner -run TestStepsOutsideTheVocabulary
mutant "explain uses the planner's capabilities" planner/planner.go 's|return p.explain(ctx, query, bridge.QueryFeatures(query).Term(), p.caps)|return p.explain(ctx, query, bridge.QueryFeatures(query).Term(), retrieval.Capabilities{Strategies: DefaultStrategies()})|' ./planner -run TestExplainPlansWhatSearchRuns
mutant "renamed target retargets the graph step" rules/retrieval/evidence.pl 's|    target(F, T), N \\== T, !\.|    target(F, T), N == T, !.|' ./planner -run TestGapAndResolution
mutant "refresh rebuilds on a new snapshot" project/project.go 's|same := p.index != nil \&\& p.id.Generation == id.Generation \&\& p.id.Fingerprint == id.Fingerprint|same := p.index != nil|' ./project -run TestRefreshMovesToTheNewSnapshot
mutant "capabilities predicted with an embedder" project/searchindex.go 's|c.Strategies = append(c.Strategies, retrieval.Vector, retrieval.Hybrid)|c.Strategies = append(c.Strategies, retrieval.Vector)|' ./project -run TestCapabilitiesWithoutATree
mutant "in-memory temp dir removed" project/project.go 's|os.RemoveAll(p.tmp)|_ = p.tmp|' ./project -run TestInMemoryWritesNothing
mutant "textclip never splits UTF-8" internal/textclip/textclip.go 's|cut = i$|cut = n|' ./internal/textclip
mutant "every rule ID is registered" rules/retrieval/classify.pl '/^rule_id(cls_empty,/d' ./rules -run TestEveryRuleIDIsRegisteredAndUsed
mutant "every registered ID is used" rules/retrieval/evidence.pl 's|^rule_id(ev_gap_unfilled, |rule_id(ev_gap_unused, "x").\nrule_id(ev_gap_unfilled, |' ./rules -run TestEveryRuleIDIsRegisteredAndUsed
mutant "rule files are checked against the step vocabulary" planner/planner.go 's|Vocabulary: bridge.Vocabulary(),||' ./planner -run TestRuleFileMistakesAreReportedAtTheirOwnLine
mutant "packages import only downward" architecture_test.go 's|^\t"planner": *{"bridge", |\t"planner": {|' . -run TestPackagesImportOnlyDownward
mutant "unlisted files leave the project" sourcefacts/store/validate.go 's|rr := s.readListed(w.path)|rr := readSource(s.abs(w.path), s.maxBytes)|' ./sourcefacts/store -run TestFilesNoLongerListed
mutant "same-snapshot search indexes of other embedders stay" project/searchindex.go 's|if strings.HasPrefix(n, current) {|if false \&\& strings.HasPrefix(n, current) {|' ./project -run TestSwitchingEmbedder
mutant "concurrent builds use their own temporary file" project/incremental.go 's|tf, err := os.CreateTemp(filepath.Dir(searchPath), strings.TrimSuffix(filepath.Base(searchPath), ".sqlite")+".tmp\*")|tf, err := os.Create(searchPath + ".tmp")|' ./project -run TestConcurrentOpensOfOneRootAllSucceed
mutant "an index in use is not removed" project/searchindex.go 's|if l, ok := tryLockExclusive(path); ok {|if l, ok := (\&fileLock{}), true; ok {|' ./project -run TestAnotherProjectsRefreshKeepsAnOpenSearchIndex
mutant "refresh after close is ErrClosed" project/project.go 's|	if p.closed {|	if false {|' ./project -run TestSearchAndRefreshAfterCloseAreErrors
mutant "bad queries are refused before the tree is checked" rlm.go 's|	if len(query) > MaxQueryBytes {|	if false {|' . -run TestBadQueriesAreRefusedBeforeTheTreeIsChecked
mutant "rules load before indexing" rlm.go 's|	pl, err := planner.New(plannerOptions(opts, caps))|	pl, err := (*planner.Planner)(nil), error(nil)|' . -run TestBadRulesAreReportedBeforeAnyIndexing
mutant "search index names tell backends apart" project/searchindex.go 's|		embedder += "-chroma"|		embedder += ""|' ./project -run TestSearchIndexNames
mutant "a path named only with other lines does not cite by symbol" loop/evidence.go 's/return bare \&\& mentionsSymbol(answer, e.Symbol)/return (bare || true) \&\& mentionsSymbol(answer, e.Symbol) \&\& strings.Contains(answer, e.Path)/' ./loop -run TestAnAnswerCitesEvidenceByLineInRangeOrByPathAndSymbol
mutant "a symbol qualified by another name is not cited" loop/evidence.go 's/if q := qualifierBefore(s, i); q == "" || qual == "" || q == qual {/if q := qualifierBefore(s, i); q == q+qual[:0] {/' ./loop -run TestAnAnswerCitesEvidenceByLineInRangeOrByPathAndSymbol
mutant "rlm compile explains a bounded number of not candidates" cmd/rlm/compile.go 's|if len(rep.NotCandidates) >= maxExplained {|if false {|' ./cmd/rlm -run TestCompileOfALargeCatalogExplainsABoundedNumberOfNotCandidates
mutant "rlm ask never prints a key the server echoes" providers/chat.go 's|if d = red.delta(d); d.empty() {|if d.empty() {|' ./cmd/rlm -run TestAskNeverPrintsTheKeyAServerEchoes
mutant "rlm ask never prints a key the server echoes (json)" providers/chat.go 's|redactResponse(out, key)|_ = key|' ./cmd/rlm -run TestAskNeverPrintsTheKeyAServerEchoes
mutant "rlm ask refuses a negative budget" cmd/rlm/ask.go 's|if \*budget < 0 {|if false {|' ./cmd/rlm -run TestAskRefusesANegativeBudget
mutant "rlm ask --trace and --json escape control characters" cmd/rlm/search.go 's|_, err := io.WriteString(w, termsafe.JSON(buf.String()))|_, err := io.WriteString(w, termsafe.JSON("")+buf.String())|' ./cmd/rlm -run TestAskTraceAndJSONNeverPrintControlCharacters
mutant "termsafe.JSON escapes C1 controls" internal/termsafe/termsafe.go 's|func jsonUnsafe(r rune) bool { return r >= 0x7f \&\& r <= 0x9f \|\| bidiControl(r) }|func jsonUnsafe(r rune) bool { return bidiControl(r) }|' ./internal/termsafe -run TestJSONEscapesWhatTheTerminalWouldRunAndDecodesTheSame

# A flag after the query is noted as query text (cmd/rlm/flags.go).
mutant "a flag after the query goes unnoted" cmd/rlm/flags.go 's|\&\& name != "" \&\& fs.Lookup(name) != nil {|\&\& name != "" \&\& fs.Lookup(name) != nil \&\& false {|' ./cmd/rlm -run TestAFlagAfterTheQueryIsQueryTextAndSaysSo
mutant "a query after -- is noted too" cmd/rlm/flags.go 's|	if n := len(args) - fs.NArg(); n > 0 \&\& args\[n-1\] == "--" {|	if false {|' ./cmd/rlm -run TestAFlagAfterTheQueryIsQueryTextAndSaysSo
