# Mutants for eval/ (rlm eval; see scripts/mutants.sh).
mutant "callers gold follows selector calls (methods, package functions)" internal/gocall/gocall.go 's|id = f.Sel|_ = f|' ./eval -run TestCallersGoldIsResolvedByGoTypesNotByName
mutant "callers gold resolves the tree's own imports to the tree" eval/gocallers.go 's|dir != "" \&\& !c.busy\[dir\]|dir == "-" \&\& !c.busy[dir]|' ./eval -run TestCallersGoldIsResolvedByGoTypesNotByName
mutant "the doc-stripped copy blanks comments above definitions" eval/strip.go 's|ls\[i\] = ""|_ = ls[i]|' ./eval -run TestStrippedCopyLosesEveryDocAndKeepsEveryLine
mutant "the doc-stripped copy removes Python docstrings" eval/strip.go 's|ls\[first\] = indent + "pass"|ls[first] = indent + "\\"\\"\\"x\\"\\"\\""|' ./eval -run TestStrippedCopyLosesEveryDocAndKeepsEveryLine
mutant "a description is the doc's first sentence" eval/decls.go 's|s = s\[:i+1\]|s = s[:]|' ./eval -run TestFirstSentenceIsTheDocsOpeningSentence
mutant "sampling follows the seed" eval/eval.go 's|perm := r.Perm(len(xs))|perm := rand.Perm(len(xs) + 0*r.IntN(1))|' ./eval -run TestSampleIsAFunctionOfTheSeed
# (The façade plans through PlanTabled, planner/table.go; PlanFor's own
# look-up in planner/search.go is the same call.)
mutant "the planner's features know the snapshot's symbol names" planner/table.go 's|bridge.QueryFeaturesIn(query, bridge.BackendLexiconMemo(ctx, b, t.lexiconFor(snapshot)))|bridge.QueryFeaturesIn(query, bridge.Lexicon{})|' . -run TestWordsTheSnapshotKnowsAreNamesInQuestions
mutant "a known word with a definition cue is an identifier question (rule)" rules/retrieval/known.pl 's|^    feature(cue(definition), F),$|    feature(cue(none), F),|' . -run TestWordsTheSnapshotKnowsAreNamesInQuestions
mutant "a known relation object is a relationship question (rule test)" rules/retrieval/known.pl 's|^    known_symbol(F, O),$|    known_symbol(F, O), fail,|' ./rules -run TestRules
mutant "names keep their legal characters when the snapshot knows them" bridge/lexicon.go 's|		if known(n) {\n			return n|XX|;s|^		if known(n) {$|		if known(n) \&\& false {|' . -run TestWordsTheSnapshotKnowsAreNamesInQuestions
mutant "a known stopword can be a relation's object" bridge/features.go 's|		if knownTok\[j\] {|		if knownTok[j] \&\& false {|' . -run TestWordsTheSnapshotKnowsAreNamesInQuestions
mutant "an unknown word with a cue stays free text" bridge/features.go 's|!stopwords.Function(lower\[i\]) \&\& known(t) {|!stopwords.Function(lower[i]) \&\& (known(t) \|\| true) {|' . -run TestAnUnknownWordWithACueIsNotAName
mutant "slash-joined words are a path only if the snapshot has it" bridge/features.go 's|!hasSourceExt(t) \&\& !lex.Path(t) {|!hasSourceExt(t) \&\& !lex.Path(t) \&\& false {|' . -run TestSlashJoinedWordsArePathsOnlyIfTheSnapshotHasThem
mutant "a path the snapshot has stays a path" bridge/lexicon.go 's|return len(req.Filter.PathPrefixes) > 0 \&\& ask("path:"+p, req)|return false|' . -run TestSlashJoinedWordsArePathsOnlyIfTheSnapshotHasThem
mutant "one definition is one hit (documents de-duplicated by definition)" planner/search.go 's|if seen\[h.Document.ID\] \|\| seen\[k\] \|\| len(ans.Hits) >= limit {|if seen[h.Document.ID] \|\| len(ans.Hits) >= limit {|' ./planner -run TestOneDefinitionIsOneHitInAnAnswer
mutant "graph steps are asked for every edge (the total)" planner/search.go 's|		limit = retrieval.MaxLimit$|		limit = limit + 0|' ./planner -run TestAnAnswerSaysHowManyOfHowMany
mutant "the answer's total counts every definition found" planner/search.go 's|	ans.Total = len(found)|	ans.Total = len(ans.Hits)|' ./planner -run TestAnAnswerSaysHowManyOfHowMany
mutant "discarded hits leave the answer" planner/search.go 's|			ans.Hits, hitKeys = ans.Hits\[:before\], hitKeys\[:before\]|			_ = before|' ./planner -run TestWeakEmbeddingHitsAloneAreNoEvidenceAndTheGapIsTheFinalOne
mutant "a later step's evidence fills the gap" planner/search.go 's|			ans.Gap = "" // a later step found evidence: the gap is filled|			_ = ans|' ./planner -run TestWeakEmbeddingHitsAloneAreNoEvidenceAndTheGapIsTheFinalOne
mutant "the floor rule judges weak embedding hits" rules/retrieval/floor.pl 's|^    Top < Floor,$|    Top < Floor, fail,|' ./planner -run TestWeakEmbeddingHitsAloneAreNoEvidenceAndTheGapIsTheFinalOne
mutant "embedding hits with BM25 support are kept (rule test)" rules/retrieval/floor.pl 's|^    ( S == exact ; S == lexical ),$|    S == none,|' ./rules -run TestRules
mutant "a doc sentence with an unnamed relation object is a description (rule)" rules/retrieval/wording.pl 's|^    \\+ named_object(F, O).$|    named_object(F, O).|' ./rules -run TestRules
mutant "a description tries BM25 before embeddings (rule)" rules/retrieval/wording.pl 's|^extra_strategy(description, F, Avail, step(lexical, \[text(T2), emphasis(doc)\], evidence),|extra_strategy(description, F, Avail, step(vector, [text(T2)], evidence),|' ./rules -run TestRules
mutant "known stopwords are no relation objects in sentences" bridge/features.go 's|			!stopwords.Function(lower\[i\]) \&\& known(t) {|			known(t) {|' . -run TestAKnownFunctionWordIsStillAWord
mutant "a query of one token is a name as typed (empty? over empty)" bridge/features.go 's|ri == len(raw)-1 \&\& len(raw) > 1, known)|ri == len(raw)-1, known)|' . -run TestWordsTheSnapshotKnowsAreNamesInQuestions

# The tasks see the files the product indexes, generated Go files included.
mutant "the tasks see generated files" eval/decls.go 's#IncludeIgnored: includeIgnored, IncludeGenerated: true}#IncludeIgnored: includeIgnored}#' ./eval -run 'TestTheTasksSeeTheGeneratedFilesTheProductIndexes'

# A task with no query shows no score (eval/report.go cells).
mutant "an unmeasured task shows scores of 0" eval/report.go 's|	if queries == 0 {|	if false \&\& queries == 0 {|' ./eval -run TestATaskWithNoQueryShowsNoScore
