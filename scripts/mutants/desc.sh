# Mutants for issue 10's description targets (see scripts/mutants.sh):
# doc-comment wording, the embedder's nature as data, and the
# description_nodoc signals.

# A sentence worded as a doc comment has the description cue (bridge).
mutant "a subject and a third-person verb are doc wording" bridge/wording.go 's|if docVerb(v) \&\& (toks|if false \&\& docVerb(v) \&\& (toks|' ./bridge -run TestASentenceWordedAsADocCommentHasTheDescriptionCue
mutant "a question is no doc wording" bridge/wording.go 's|strings.HasSuffix(strings.TrimSpace(text), "?")|false|' ./bridge -run TestASentenceWordedAsADocCommentHasTheDescriptionCue
mutant "a passive relation or cue word is no doc wording" bridge/wording.go 's/\tif relationWords\[next\] || cueWords\[next\] {/\tif false {/' ./bridge -run TestASentenceWordedAsADocCommentHasTheDescriptionCue
mutant "a relation verb with a name for object is no doc wording" bridge/wording.go 's/ || relationWords\[v\] \&\& !determiners\[next\] {/ {/' ./bridge -run TestASentenceWordedAsADocCommentHasTheDescriptionCue
mutant "a plain lowercase subject needs a function word after its verb" bridge/wording.go 's/|| stopwords.Function(next))/|| stopwords.Function(next) || true)/' ./bridge -run TestASentenceWordedAsADocCommentHasTheDescriptionCue
mutant "doc wording is the cue" bridge/wording.go 's/case f.DocWording:/case false:/' ./bridge -run TestASentenceWordedAsADocCommentHasTheDescriptionCue
mutant "double backticks quote a name" bridge/features.go 's|case strings.HasPrefix(work\[i:\], "``"):|case false:|' ./bridge -run TestDoubleBackticksQuoteAName

# The rules: a doc-worded sentence is a description; names are context.
mutant "a doc-worded sentence is a description (rule)" rules/retrieval/wording.pl '/^extra_class_rule(cls_doc_wording/{n;s|feature(cue(description(S)), F),|feature(cue(none), F),|}' ./rules -run TestRules
mutant "a doc-worded sentence is no known-name relationship question" rules/retrieval/known.pl 's|^    \\+ feature(cue(description(_)), F),$|    true,|' ./rules -run TestRules
mutant "a doc-worded description looks its subject up first" rules/retrieval/wording.pl 's|^    S \\== "",$|    fail,|' ./rules -run TestRules
mutant "BM25 follows the subject's definitions" rules/retrieval/wording.pl 's|^extra_verdict(description, _, result(step(exact, _, evidence), C, _), continue,$|extra_verdict(description, _, result(step(exact, _, evidence), C, _), enough,|' ./rules -run TestRules
mutant "an exact step with text ranks the name's definitions by it" planner/search.go 's|slices.SortStableFunc(out, func(x, y retrieval.Hit) int { return cmp.Or(back(x)-back(y), at(x)-at(y)) })|_ = cmp.Or(0, at(out[0])*back(out[0]))|' ./planner -run TestADocWordedDescriptionsSubjectComesFirstRankedByItsText
mutant "the subject is named in the features" bridge/wording.go 's|return engine.Compound(CueDescription, engine.String(f.Subject))|return engine.Compound(CueDescription, engine.String(""))|' ./bridge -run TestADocWordedSentenceNamesItsSubject
mutant "a description's focus identifier is checked, not the answer" rules/retrieval/strategy.pl 's|candidate(conceptual, F, step(exact, \[name(T)\], check),|candidate(conceptual, F, step(exact, [name(T)], evidence),|' ./rules -run TestRules

# The embedder's nature is data the rules plan and judge with.
mutant "a lexical embedder's vectors are not trusted" rules/retrieval/vectors.pl 's|    \\+ memberchk(embedder(lexical), Avail).|    true.|' ./planner -run TestTheRulesPlanADescriptionForTheBackendsEmbedder
mutant "a conceptual hybrid step needs trusted vectors" rules/retrieval/strategy.pl 's|^    trusted_vectors(Avail),$|    true,|' ./rules -run TestRules
mutant "hybrid supersedes BM25 only with trusted vectors" rules/retrieval/strategy.pl 's|^    trusted_vectors(Avail), !.$|    !.|' ./rules -run TestRules
mutant "a description's hybrid step needs trusted vectors" rules/retrieval/wording.pl 's|^    trusted_vectors(Avail).$|    true.|' ./rules -run TestRules
mutant "the floor is per embedder" rules/retrieval/floor.pl 's|floor(cosine_similarity, E, 0.45) :- E \\== learned.|floor(cosine_similarity, _, 0.45).|' ./planner -run TestTheFloorJudgesEmbeddingScoresOnTheirEmbeddersScale
mutant "the floor reads the embedder from the capabilities" rules/retrieval/floor.pl 's|^    memberchk(embedder(E0), Avail), !,$|    fail,|' ./rules -run TestRules
mutant "the planner gives the rules the embedder" planner/planner.go 's|ts = append(ts, engine.Compound("embedder", engine.Atom(caps.Embedder)))|_ = caps|' ./planner -run TestTheRulesPlanADescriptionForTheBackendsEmbedder
mutant "the judge sees the backend's capabilities" planner/search.go 's|caps := capabilityList(b.Capabilities())|caps := capabilityList(retrieval.Capabilities{})|' ./planner -run TestTheFloorJudgesEmbeddingScoresOnTheirEmbeddersScale
mutant "an embedder that says it is lexical is" retrieval/retrieval.go 's|ok \&\& n.Nature() == EmbedderLexical|ok \&\& n.Nature() == "x"|' ./retrieval -run TestEmbedderNatureIsWhatTheEmbedderSays
mutant "a router's embedder is its vector backend's" retrieval/router.go 's|\t\t\tc.Embedder = v.Embedder|\t\t\t_ = v.Embedder|' ./retrieval -run TestARoutersEmbedderIsTheOneThatScoresItsVectors
mutant "the local embedder is lexical" providers/local.go 's|func (l \*LocalEmbedder) Nature() string { return retrieval.EmbedderLexical }|func (l *LocalEmbedder) Nature() string { return retrieval.EmbedderLearned }|' ./providers -run TestTheLocalEmbedderIsLexicalAndARemoteOneLearned
mutant "the embedded backend says its embedder" retrieval/embedded/embedded.go 's|Embedder: retrieval.EmbedderNature(b.opts.embedder)}|}|' ./retrieval/embedded -run TestCapabilities
mutant "a guarded embedder keeps its nature" project/embedderfail.go 's|func (g guardedEmbedder) Nature() string { return retrieval.EmbedderNature(g.Embedder) }|func (g guardedEmbedder) Nature() string { return retrieval.EmbedderLearned }|' ./project -run TestCapabilitiesWithoutATreeMatchAnOpenedProject
mutant "predicted capabilities name the embedder" project/searchindex.go 's|\t\tc.Embedder = retrieval.EmbedderNature(opts.Embedder)|\t\t_ = opts|' ./project -run TestCapabilitiesWithoutATreeMatchAnOpenedProject

# description_nodoc signals.
mutant "a definition's text holds the names it calls" project/documents.go 's|withOwnLines(docs\[i\], neighbourText(docs\[i\]), |withOwnLines(docs[i], "", |' ./project -run TestADefinitionIsFoundByTheNamesItCalls
mutant "word forms keep the word's stem" bridge/forms.go 's|english.Stem(c, true) == stem|stem != ""|' ./bridge -run TestWordFormsAreTheBaseFormsAnInflectedWordStandsFor
mutant "inflected words expand" rules/retrieval/expand.pl 's|^expand_relation(inflection).$|expand_relation(none).|' ./rules -run TestRules

# An answer's explanation says only what happened (the rules of steps that
# ran) and a step's sparing is not shown as a quoted query.
EXPL='TestAnAnswersExplanationSaysOnlyWhatHappened'
mutant "a planned step's rule joins the chain only when it runs" planner/search.go 's|	if len(planned) == len(agenda) {|	if false {|' . -run $EXPL
mutant "a doc-comment sparing is shown as one" planner/types.go 's|args = append(args, "spare=doc-start")|args = append(args, "quoted")|' . -run $EXPL

# A vector step that could not run (a dead embedder) is data to the rules,
# which fall back to BM25.
DEAD='TestADeadEmbedderLeavesADescriptionToBM25'
mutant "the judge hears which strategies could not run" planner/search.go 's|caps = capabilityList(b.Capabilities(), down...)|caps = capabilityList(b.Capabilities())|' . -run $DEAD
mutant "unavailable(S) is in the capability list" planner/planner.go 's|ts = append(ts, engine.Compound("unavailable", engine.Atom(s)))|_ = s|' . -run $DEAD
mutant "a step that could not run is judged as such" rules/retrieval/floor.pl 's|^    next_unavailable(Class, F, Avail, H, Pending, Next, Outcome), !.|    fail.|' . -run $DEAD
mutant "BM25 is the fallback without vectors" rules/retrieval/strategy.pl 's|^    vectors_fallback(Class, F, Gap, H, Steps, Why).|    fail.|' . -run $DEAD
mutant "a BM25 step that ran is not run again" rules/retrieval/vectors.pl 's|^    \\+ tried(H, lexical, text(T2)).|    true.|' ./rules -run TestRules
mutant "explain names the fallback without vectors" rules/retrieval/explain.pl 's|^possible_gap(step(S, _, _), vectors_unavailable(S)) :-|possible_gap(step(S, _, _), vectors_gone(S)) :-|' ./rules -run TestRules

# A description's BM25 weighs doc comments more (emphasis(doc)), so that
# its words in a long doc comment count more than the comment's length
# (Python json's loads).
LONG='TestALongDocstringIsFoundByItsFirstSentence'
mutant "the doc column weighs 4 with the doc emphasis" retrieval/embedded/embedded.go 's|const bm25DocWeights = "10.0, 4.0, 3.0, 1.5, 1.0"|const bm25DocWeights = "10.0, 2.0, 3.0, 1.5, 1.0"|' . -run $LONG
mutant "a lexical search honours the emphasis" retrieval/embedded/embedded.go 's|return "-bm25(fts, " + bm25WeightsFor(e) + ")"|return "-bm25(fts, " + bm25WeightsFor("") + ")"|' . -run $LONG
mutant "a description's BM25 step weighs doc comments" rules/retrieval/wording.pl 's|^extra_strategy(description, F, Avail, step(lexical, \[text(T2), emphasis(doc)\], evidence),|extra_strategy(description, F, Avail, step(lexical, [text(T2)], evidence),|' . -run $LONG
mutant "a conceptual query's BM25 step weighs doc comments" rules/retrieval/strategy.pl 's|^candidate(conceptual, F, step(lexical, \[text(T2), emphasis(doc)\], evidence),|candidate(conceptual, F, step(lexical, [text(T2)], evidence),|' ./rules -run TestRules
mutant "a conceptual query's hybrid step weighs doc comments" rules/retrieval/strategy.pl 's|^candidate(conceptual, F, Avail, step(hybrid, \[text(T2), emphasis(doc)\], evidence),|candidate(conceptual, F, Avail, step(hybrid, [text(T2)], evidence),|' ./rules -run TestRules
mutant "a description's subject step weighs doc comments" rules/retrieval/wording.pl 's|step(exact, \[name(S), text(T), emphasis(doc), demote(internal)\], evidence)|step(exact, [name(S), text(T), demote(internal)], evidence)|' ./rules -run TestRules
mutant "emphasis(doc) is decoded" planner/decode.go 's|			s.Emphasis = val|			s.Emphasis = ""|' . -run $LONG
mutant "a step's emphasis reaches the request" planner/types.go 's|		Emphasis: retrieval.Emphasis(s.Emphasis),|		Emphasis: "",|' . -run $LONG
mutant "an unknown emphasis is a bad request" retrieval/retrieval.go 's|	if req.Emphasis != "" \&\& req.Emphasis != EmphasisDoc {|	if false {|' ./retrieval/embedded -run TestEmbeddedBackendKeepsTheRetrievalContract

# A token ending in a slash names a directory, not a file that starts so.
mutant "a trailing slash names a directory only" bridge/lexicon.go 's|	dirOnly := strings.HasSuffix(p, "/")|	dirOnly := false \&\& strings.HasSuffix(p, "/")|' . -run TestSlashJoinedWordsArePathsOnlyIfTheSnapshotHasThem

# "Return(s) …" opens a doc sentence about the function it documents.
mutant "a Return sentence is doc wording" bridge/wording.go 's|var openingVerbs = setOf(`return returns`)|var openingVerbs = setOf(``)|' ./bridge -run TestASentenceWordedAsADocCommentHasTheDescriptionCue
mutant "a Return sentence is a description" bridge/wording.go 's|		return "", true // "Return a reference to the payload": about the function it documents|		return "", false|' . -run TestAReturnSentenceIsADescriptionWhateverRelationWordsItHolds

# A doc sentence after an opening clause ("For server requests, Host …").
mutant "the sentence after an opening clause is read as a doc sentence" bridge/features.go 's|	if !f.DocWording \&\& clause > 0 \&\& clause < len(toks) \&\& openingClause(lower\[:clause\]) {|	if false {|' . -run TestADocSentenceAfterAnOpeningClauseIsAboutItsSubject
mutant "an opening clause opens with a function word" bridge/wording.go 's|\&\& stopwords.Function(lower\[0\])$|\&\& lower[0] != ""|' ./bridge -run TestASentenceWordedAsADocCommentHasTheDescriptionCue
mutant "an opening clause is short" bridge/wording.go 's|return len(lower) <= maxOpeningClause \&\& |return |' ./bridge -run TestASentenceWordedAsADocCommentHasTheDescriptionCue

# Doc sentences with relation words (testdata/desc/testdoc).
mutant "a test's Test that sentence is a doc sentence" bridge/wording.go 's#if testOpenings\[lower\[0\]\] \&\& lower\[1\] == "that" {#if false {#' . -run 'TestADocSentenceWithARelationWordIsAboutItsSubject'
mutant "a doc sentence's relation object is content" bridge/features.go 's#|| !f.DocWording \&\& toks\[i\] == f.RelationObject {#|| toks[i] == f.RelationObject {#' . -run 'TestADocSentenceWithARelationWordIsAboutItsSubject'
mutant "X is called by ... asks for X's callers" bridge/features.go 's#if i >= 2 \&\& passiveVerbs\[lower\[i-1\]\] \&\& (isIdent\[i-2\] || knownTok\[i-2\]) {#if false {#' ./bridge -run 'TestAPassiveCalledByAsksForTheSubjectsCallers'

# Undocumented definitions are indexed by their own source lines (project/ownsource.go).
mutant "an undocumented definition's own lines are in its text" project/documents.go 's|docs\[i\].Text = withOwnLines(docs\[i\], neighbourText(docs\[i\]), own\[i-base\])|docs[i].Text, _ = neighbourText(docs[i]), own|' . -run TestAnUndocumentedDefinitionIsFoundByTheWordsOfItsOwnCode
mutant "a line is its innermost definition's" project/ownsource.go 's|return span(b) - span(a)|return span(a) - span(b)|' . -run TestAnUndocumentedDefinitionIsFoundByTheWordsOfItsOwnCode
mutant "a documented definition is not indexed by its code" project/ownsource.go 's|if s.Doc != "" {|if false {|' . -run TestAnUndocumentedDefinitionIsFoundByTheWordsOfItsOwnCode
mutant "own lines come only from the extracted bytes" project/ownsource.go 's|if err != nil \|\| sourcefacts.HashBytes(b) != f.Provenance.Hash {|if err != nil {|' ./project -run TestOwnLinesComeOnlyFromTheBytesTheFactsWereExtractedFrom

# A doc-worded description's subject: the public definition before its internal namesake.
mutant "the subject step demotes internal namesakes (rule)" rules/retrieval/wording.pl 's/emphasis(doc), demote(internal)\], evidence)/emphasis(doc)], evidence)/' . -run TestADescriptionsSubjectIsThePublicDefinitionBeforeItsInternalNamesake
mutant "the subject step demotes internal namesakes (rule test)" rules/retrieval/wording.pl 's/emphasis(doc), demote(internal)\], evidence)/emphasis(doc)], evidence)/' ./rules -run TestRules
mutant "demote(internal) demotes the internal package's documents" retrieval/demote.go 's/ || IsInternal(doc) \&\& slices.Contains(d.Roles, Internal)//' . -run TestADescriptionsSubjectIsThePublicDefinitionBeforeItsInternalNamesake
mutant "a Go internal/ directory is an internal package" sourcefacts/roles.go 's|return strings.Contains("/"+dir, "/internal/")|return strings.Contains("/"+dir, "/internals/")|' . -run TestADescriptionsSubjectIsThePublicDefinitionBeforeItsInternalNamesake
mutant "a definition in an internal package is marked" project/documents.go 's|docs\[len(docs)-1\].Metadata\[retrieval.MetaInternal\] = "true"|_ = retrieval.MetaInternal|' . -run TestADescriptionsSubjectIsThePublicDefinitionBeforeItsInternalNamesake

# rlm eval: a miss says where the baseline ranked its gold (sixth round).
mutant "a miss carries the baseline's rank of its gold" eval/eval.go 's|\t\t\tm.BM25Rank = br|\t\t\t_ = br|' ./eval -run TestAMissSaysWhereTheBaselineRankedItsGold
mutant "the text report prints the baseline's rank of a miss" eval/report.go 's|rank += fmt.Sprintf(", bm25 rank %d", m.BM25Rank)|rank += ""|' ./eval -run TestAMissSaysWhereTheBaselineRankedItsGold
mutant "the text report says when the baseline missed the gold too" eval/report.go 's|rank += ", bm25 not found"|rank += ""|' ./eval -run TestAMissSaysWhereTheBaselineRankedItsGold

# A grammar rule finds the parser of its name (sixth round).
mutant "a grammar rule needs its right-hand side" bridge/wording.go 's#ok \&\& grammarRHS(name, r) {#ok \&\& len(r) >= 0 {#' ./bridge -run TestAGrammarRuleIsAProductionCue
mutant "a grammar rule's operator stands between spaces" bridge/wording.go 's|for _, op := range \[\]string{" = ", " := ", " ::= "} {|for _, op := range []string{"=", " = ", " := ", " ::= "} {|' ./bridge -run TestAGrammarRuleIsAProductionCue
mutant "the production is the cue" bridge/wording.go 's|\tcase f.Production != "":|\tcase false:|' ./bridge -run TestAGrammarRuleIsAProductionCue
mutant "the features name the production" bridge/wording.go 's|return engine.Compound(CueProduction, engine.String(f.Production))|return engine.Atom(CueProduction)|' ./bridge -run TestAGrammarRuleIsAProductionCue
mutant "a grammar rule is a description (rule)" rules/retrieval/wording.pl '/^extra_class_rule(cls_grammar_production/{n;s|feature(cue(production(N)), F).|feature(cue(production(N)), F), fail.|}' ./rules -run TestRules
mutant "a grammar rule's first step keeps the names that hold its name" rules/retrieval/wording.pl 's|^extra_strategy(description, F, step(lexical, \[text(T), name_part(N), emphasis(doc)\], evidence),|extra_strategy(description, F, step(lexical, [text(T), emphasis(doc)], evidence),|' ./rules -run TestRules
mutant "BM25 follows the names a grammar rule's name holds" rules/retrieval/wording.pl 's|^    memberchk(name_part(_), A).$|    memberchk(name_part(_), A), C =:= 0.|' ./rules -run TestRules
mutant "a name_part step keeps only the names that hold it" planner/search.go 's|\t\treturn keepNamed(hits, s.NamePart), nil|\t\treturn hits, nil|' . -run TestAGrammarRuleFindsTheParserOfItsName
mutant "the planner reads name_part" planner/decode.go 's|\t\t\ts.NamePart = val|\t\t\t_ = val|' . -run TestAGrammarRuleFindsTheParserOfItsName
mutant "a name's compound words hold a name part" planner/namepart.go 's|have := append(identparts.Parts(d.Symbol), d.NameWords...)|have := identparts.Parts(d.Symbol)|' ./planner -run TestANamePartIsHeldByANameThatHasEveryOneOfItsWords
mutant "a name part is held only if every word is" planner/namepart.go 's|^\t\t\treturn false$|\t\t\tcontinue|' ./planner -run TestANamePartIsHeldByANameThatHasEveryOneOfItsWords
mutant "name_part is for lexical steps only" planner/decode.go 's|if s.NamePart != "" \&\& s.Strategy != "lexical" {|if false {|' ./planner -run TestNamePartIsALexicalStepsArgument
# Code assigned to a variable is no grammar rule (bridge.grammarRHS).
mutant "a grammar rule's right-hand side has no call" bridge/wording.go 's#case c == .(. \&\& i > 0 \&\& isWordByte(rhs\[i-1\]):#case false:#' ./bridge -run TestAGrammarRuleIsAProductionCue
mutant "a grammar rule's right-hand side has no member dot" bridge/wording.go 's#case c == .\.. \&\& i > 0 \&\& i+1 < len(rhs)#case false \&\& i > 0 \&\& i+1 < len(rhs)#' ./bridge -run TestAGrammarRuleIsAProductionCue
mutant "a grammar rule's right-hand side has no braces" bridge/wording.go 's#case strings.IndexByte("{};\&", c) >= 0:#case false:#' ./bridge -run TestAGrammarRuleIsAProductionCue
mutant "one element is a rule only under a hyphened name" bridge/wording.go 's#return operator || len(elems) >= 2 || strings.Contains(name, "-")#return operator || len(elems) >= 1#' ./bridge -run TestAGrammarRuleIsAProductionCue
mutant "quoted literals hide their marks" bridge/wording.go 's#^\t\t\tif c == quote {#\t\t\tif true {#' ./bridge -run TestAGrammarRuleIsAProductionCue
# Prose around a relation word names no target (bridge/features.go).
mutant "a demonstrative object is no relation target" bridge/features.go 's#return i+1 < len(lower) \&\& demonstratives\[lower\[i\]\]#return false \&\& demonstratives[lower[i]]#' ./bridge -run TestProseAroundARelationWordNamesNoTarget
mutant "a pronoun is no relation object" bridge/features.go 's#^\t\tif pronouns\[lower\[i\]\] {#\t\tif false {#' ./bridge -run TestProseAroundARelationWordNamesNoTarget
mutant "use after for is a noun" bridge/features.go 's#|| w == "use" \&\& i > 0 \&\& useNounMarks\[lower\[i-1\]\] {#{#' ./bridge -run TestProseAroundARelationWordNamesNoTarget

# A Python special method is indexed by the language reference's words for
# it (project/specialmethods.go).
SM='. -run TestASpecialMethodIsFoundByTheLanguagesWordsForIt'
mutant "special methods get no words" project/specialmethods.go 's|	return pythonSpecialMethodWords\[s.Name\]|	return nil|' $SM
mutant "the special method words stay out of the document" project/documents.go 's|	return text + "\\n" + strings.Join(words, " ")|	return text|' $SM
mutant "__len__ has no word for a number" project/specialmethods.go 's|"length", "number", "count", "size"|"length", "count", "size"|' $SM

# A noun phrase naming a kind of type ranks types first (typeword.pl,
# retrieval.TypesFirst).
mutant "a determiner after the first word makes a verb and its object" rules/retrieval/typeword.pl 's|^    \\+ ( member(D, Rest), determiner(D) ),$|    true,|' ./rules -run TestRules
mutant "the opening phrase ends at its end word" rules/retrieval/typeword.pl 's|^    phrase_end(W), !.$|    fail.|' ./rules -run TestRules
mutant "the opening ends at clause punctuation" bridge/features.go 's|if opening == 0 \&\& strings.ContainsAny|if false \&\& strings.ContainsAny|' ./rules -run TestRules
mutant "a type-worded description's steps carry types(first)" rules/retrieval/strategy.pl 's|^              rank_types(Class, F, Step2, Why2, Step, Why),$|              Step = Step2, Why = Why2,|' ./rules -run TestRules
mutant "types(first) is decoded" planner/decode.go 's|\t\t\ts.TypesFirst = true|\t\t\ts.TypesFirst = false|' . -run TestANounPhraseNamingAKindOfTypeFindsTheType
mutant "a type its hits are members of joins them" retrieval/typesfirst.go 's|const ContainerMembers = 2|const ContainerMembers = 99|' . -run TestANounPhraseNamingAKindOfTypeFindsTheType
mutant "types rank first" retrieval/typesfirst.go 's|\t\t\treturn 0\n|\t\t\treturn 1\n|; s|case IsTypeKind(h.Document.Kind):|case false:|' . -run TestANounPhraseNamingAKindOfTypeFindsTheType
mutant "demoted definitions stay after the types" retrieval/typesfirst.go 's|\t\tcase d.Demotes(h.Document):|\t\tcase false:|' . -run TestANounPhraseNamingAKindOfTypeFindsTheType
mutant "a joined type displaces no match from a short page" retrieval/typesfirst.go 's|if n := max(limit, len(hits)); len(out) > n {|if n := len(hits); len(out) > n {|' . -run TestANounPhraseNamingAKindOfTypeFindsTheType
mutant "the type whose lines hold the member joins" retrieval/typesfirst.go 's|\tcase inner != nil:|\tcase false:|' . -run TestANounPhraseNamingAKindOfTypeFindsTheType
mutant "an imperative verb and its object is not type-worded" rules/retrieval/typeword.pl 's|^    \\+ ( Rest = \[_\|_\], imperative_verb(First) ),$|    true,|' ./rules -run TestRules
mutant "a quantifier after a relation word names nothing" bridge/features.go 's|		if quantifierObject(toks, lower, i+1, known) {|		if false \&\& quantifierObject(toks, lower, i+1, known) {|' ./bridge -run TestAQuantifierAfterARelationWordNamesNothing
mutant "as defined by is no definition cue" bridge/features.go 's|		if cueWords\[w\] \&\& !(i > 0 \&\& lower\[i-1\] == "as") {|		if cueWords[w] {|' ./bridge -run TestAsDefinedByIsNoDefinitionCue

# Adjacent words that spell the initials of a term of the search index
# add it to the search text (bridge.Acronym, expand.pl's cx_acronym).
AC='. -run TestAnAcronymInTheCodeIsFoundByTheWordsItAbbreviates'
mutant "the acronyms are found" bridge/features.go 's|	f.Acronyms = acronyms(f.ContentWords, contentPos, lower, lex)|	f.Acronyms = nil|' ./bridge -run TestAdjacentWordsSpellAnAcronymTheSnapshotHolds
mutant "an acronym is a term of the index" bridge/acronym.go 's/if seen\[a\] || contains(query, a) || !term(a) {/if seen[a] || contains(query, a) {/' ./bridge -run TestAdjacentWordsSpellAnAcronymTheSnapshotHolds
mutant "a word between breaks the run" bridge/acronym.go 's/ || j > 0 \&\& x.tok-run\[j-1\].tok > 1 {/ || j < 0 {/' ./bridge -run TestAdjacentWordsSpellAnAcronymTheSnapshotHolds
mutant "an acronym spells three words or more" bridge/acronym.go 's/	MinAcronymWords = 3/	MinAcronymWords = 2/' ./bridge -run TestAdjacentWordsSpellAnAcronymTheSnapshotHolds
mutant "a word of the query is no acronym" bridge/acronym.go 's/if seen\[a\] || contains(query, a) || !term(a) {/if seen[a] || !term(a) {/' ./bridge -run TestAdjacentWordsSpellAnAcronymTheSnapshotHolds
mutant "a hyphened token gives one word per part" bridge/acronym.go 's|		for _, p := range strings.Split(w, "-") {|		for _, p := range []string{w} {|' ./bridge -run TestAdjacentWordsSpellAnAcronymTheSnapshotHolds
mutant "the backend lexicon knows the index's terms" bridge/lexicon.go 's|	if caps.Supports(retrieval.Lexical) {|	if false \&\& caps.Supports(retrieval.Lexical) {|' $AC
mutant "the acronyms reach the rules" bridge/features.go 's|		engine.List(acs...),|		engine.List(),|' $AC
mutant "the rules add the acronym" rules/retrieval/expand.pl 's|^expand_relation(acronym).$||' $AC
mutant "an acronym is added once" rules/retrieval/expand.pl 's|^    \\+ memberchk(T, Added), !,$|    !,|' ./rules -run TestRules
mutant "acronyms count toward the bound" rules/retrieval/expand.pl 's|^    Left =< 0, !.$|    fail.|' ./rules -run TestRules
mutant "the terms' look-ups are bounded" bridge/lexicon.go 's|			seen, max = terms, MaxTermLookups|			seen, max = terms, 1 << 20|' ./bridge -run TestABackendLexiconKnowsTheIndexsTermsWithinItsOwnBound
mutant "the terms' bound is apart from the names'" bridge/lexicon.go 's|	terms := map\[string\]bool{} // words asked|	terms := seen|' ./bridge -run TestABackendLexiconKnowsTheIndexsTermsWithinItsOwnBound
mutant "words named in full give no acronym" bridge/acronym.go 's|			if spelledOut(rw, lex.Symbol) {|			if false \&\& spelledOut(rw, lex.Symbol) {|' $AC
mutant "a snake_case name spells the words out" bridge/acronym.go 's|	for _, n := range \[\]string{pascal.String(), camel.String(), snake, strings.ToUpper(snake)} {|	for _, n := range []string{pascal.String(), camel.String(), strings.ToUpper(snake)} {|' ./bridge -run TestAdjacentWordsSpellAnAcronymTheSnapshotHolds
mutant "a camelCase name spells the words out" bridge/acronym.go 's|	for _, n := range \[\]string{pascal.String(), camel.String(), snake, strings.ToUpper(snake)} {|	for _, n := range []string{pascal.String(), snake, strings.ToUpper(snake)} {|' ./bridge -run TestAdjacentWordsSpellAnAcronymTheSnapshotHolds
