# Mutants for issue 10, faults 6 and 10: roles of files and definitions
# (sourcefacts/roles.go), their storage, the role filters and demotion of
# every backend (retrieval/demote.go, retrieval/embedded, retrieval/chroma),
# the rules that decide demotion (rules/retrieval/roles.pl) and the hit
# metadata a host cites (see scripts/mutants.sh).
SF=./sourcefacts
ROLES='TestFileRolesFollowEachLanguagesConvention'
mutant "Python: conftest.py is a test" sourcefacts/roles.go 's|{Language: LangPython, Base: "conftest.py", Role: RoleTest},||' $SF -run $ROLES
mutant "Python: tests/ holds tests" sourcefacts/roles.go 's|{Language: LangPython, Dir: "tests", Role: RoleTest},||' $SF -run $ROLES
mutant "JavaScript: __tests__/ holds tests" sourcefacts/roles.go 's|{Language: LangJavaScript, Dir: "__tests__", Role: RoleTest},||' $SF -run $ROLES
mutant "JavaScript: test/ holds tests" sourcefacts/roles.go 's|{Language: LangJavaScript, Dir: "test", Role: RoleTest},||' $SF -run $ROLES
mutant "Ruby: spec/ holds tests" sourcefacts/roles.go 's|{Language: LangRuby, Dir: "spec", Role: RoleTest},||' $SF -run $ROLES
mutant "Java: src/test/ holds tests" sourcefacts/roles.go 's|{Language: LangJava, Dir: "src/test", Role: RoleTest},||' $SF -run $ROLES
mutant "C: test/ holds tests" sourcefacts/roles.go 's|{Language: LangC, Dir: "test", Role: RoleTest},||' $SF -run $ROLES
mutant "examples/ holds examples" sourcefacts/roles.go 's|{Dir: "examples", Role: RoleExample},||' $SF -run $ROLES
mutant "a directory is matched as a whole name" sourcefacts/roles.go 's|strings.Contains(dirs, "/"+c.Dir+"/")|strings.Contains(dirs, c.Dir)|' $SF -run TestFileRoleReadsTheConventionTableInOrder
mutant "files get their role" sourcefacts/extract.go 's|ff.Role = FileRole(lang, p)|ff.Role = FileRole(lang+"?", p)|' $SF -run $ROLES
OWN='TestDefinitionsWhoseSyntaxSaysSoHaveTheirOwnRole'
mutant "Go Example functions are examples" sourcefacts/roles.go 's|role = RoleExample|role = ""|' $SF -run $OWN
mutant "Example then a lower-case letter is no example" sourcefacts/roles.go 's|return !unicode.IsLower(r)|return r != 0 \|\| !unicode.IsLower(r)|' $SF -run $OWN
mutant "Rust: the item after #[cfg(test)] and more attributes is a test" sourcefacts/tsfacts.go 's|n.Kind() == "attribute_item" |n.Kind() == "attribute" |' $SF -run $OWN
mutant "Rust: #[cfg(test)] is captured" sourcefacts/queries/rust-extra.scm 's|(#eq? @_test "test")) @role.test|(#eq? @_test "test")) @role.tst|' $SF -run $OWN
mutant "a symbol repeats no role of its file" sourcefacts/roles.go 's|if role != "" \&\& role != ff.Role {|if role != "" {|' $SF -run $OWN

# The store keeps roles; documents carry them.
FACADE='TestRoleFiltersAreHonouredInEveryMode|TestDescriptionsRankTheCodeBeforeItsTestsAndExamplesInEveryLanguage'
mutant "the store keeps a file's role" sourcefacts/store/writefile.go 's|checked, skipped, pv.LanguageBy, ff.Role, r.id)|checked, skipped, pv.LanguageBy, "", r.id)|' . -run "$FACADE"
mutant "the store keeps a definition's own role" sourcefacts/store/packed.go 's|^\t\tw.str(y.Role)$|\t\tw.str("")|' . -run "$FACADE"
mutant "documents carry their role" project/documents.go 's|Role:        role,|Role:        "",|' . -run "$FACADE"

# Role filters and demotion in the backends.
mutant "embedded: Filter.Roles" retrieval/embedded/search.go 's|in(roleSQL, f.Roles)|in(roleSQL, nil)|' ./retrieval/embedded -run TestEmbeddedBackendKeepsTheRetrievalContract
mutant "embedded: Filter.ExcludeRoles" retrieval/embedded/search.go 's|roleSQL+" NOT IN ("|roleSQL+" IN ("|' ./retrieval/embedded -run TestEmbeddedBackendKeepsTheRetrievalContract
mutant "embedded: a document without a role is a test by its test flag" retrieval/embedded/search.go "s|WHEN d.test <> 0 THEN 'test'|WHEN d.test <> 0 THEN 'source'|" ./retrieval/embedded -run TestEmbeddedBackendKeepsTheRetrievalContract
mutant "chroma: Filter.ExcludeRoles" retrieval/chroma/filter.go 's|"$nin": vals|"$in": vals|' ./retrieval/chroma -run TestRolesAreStoredForFiltersAndReadBackAsGiven
mutant "chroma: a derived role reads back empty" retrieval/chroma/metadata.go 's|if derived, _ := m\[MetaRoleDerived\].(bool); !derived {|if true {|' ./retrieval/chroma -run TestRolesAreStoredForFiltersAndReadBackAsGiven
DEM='TestDemotion|TestQuotes'
mutant "demotion moves the demoted roles back" retrieval/demote.go 's|		if d.Demotes(h.Document) {|		if false {|' ./retrieval -run "$DEM"
mutant "demotion finds the others below the depth it reads" retrieval/demote.go 's|if len(front) < req.Limit \&\& len(hits) == deep.Limit {|if false {|' ./retrieval -run "$DEM"
mutant "demotion spares a quoted definition" retrieval/demote.go 's|d.Quoted != "" \&\& Quotes(d.Quoted, doc.Doc)|false|' ./retrieval -run "$DEM"
mutant "demotion spares a named definition" retrieval/demote.go 's|slices.Contains(d.Names, doc.Symbol) \|\| ||' ./retrieval -run "$DEM"
mutant "a quote is at least three words" retrieval/demote.go 's|if len(q) < 3 {|if len(q) < 1 {|' ./retrieval -run "$DEM"
mutant "demotion keeps every hit, in every strategy" retrieval/demote.go 's|out := append(front, back...)|out := front|' ./retrieval/embedded -run TestEmbeddedBackendKeepsTheRetrievalContract

# The planner runs what the rules decide.
mutant "a step's demotion is run" planner/search.go 's|hits, err := retrieval.SearchDemoting(ctx, b, req, dem)|hits, err := b.Search(ctx, req)|' . -run TestDescriptionsRankTheCodeBeforeItsTestsAndExamplesInEveryLanguage
mutant "examples(exclude) is a filter" planner/types.go 's|req.Filter.ExcludeRoles = \[\]string{retrieval.RoleExample}|req.Filter.ExcludeRoles = nil|' . -run TestRoleFiltersAreHonouredInEveryMode
mutant "examples(only) is a filter" planner/types.go 's|req.Filter.Roles = \[\]string{retrieval.RoleExample}|req.Filter.Roles = nil|' . -run TestRoleFiltersAreHonouredInEveryMode
mutant "demote(R) is decoded" planner/decode.go 's|s.Demote = append(s.Demote, val)|s.Demote = nil|' . -run TestDescriptionsRankTheCodeBeforeItsTestsAndExamplesInEveryLanguage
mutant "words ask about examples" bridge/constraints.go 's|{ConstraintExamples, setOf(`example examples`), setOf(`non-example non-examples`)},||' ./bridge -run TestConstraintsAreParsedFromTheQueryAsData
mutant "no|without ROLE excludes it" bridge/constraints.go 's|case r.words\[w\] \&\& noRolePhrases\[prev\]:|case false:|' ./bridge -run TestConstraintsAreParsedFromTheQueryAsData

# The rules decide.
mutant "descriptions demote" rules/retrieval/roles.pl 's|^demoting_class(conceptual).|demoting_class(nothing).|' . -run TestDescriptionsRankTheCodeBeforeItsTestsAndExamplesInEveryLanguage
mutant "sentences worded as descriptions demote" rules/retrieval/roles.pl 's|^demoting_class(description).|demoting_class(nothing_else).|' ./rules -run TestRules
mutant "only descriptions demote" rules/retrieval/roles.pl 's#^rank_roles(_, _, Step, Why, Step, Why).#rank_roles(_, _, step(S, A, evidence), W, step(S, [demote(test)|A], evidence), W) :- !.\nrank_roles(_, _, Step, Why, Step, Why).#' . -run TestOnlyDescriptionsDemoteTestsAndExamples
mutant "a question about tests keeps them" rules/retrieval/roles.pl 's|^role_word(test, "tests").|role_word(test, "testz").|' . -run TestAQuestionAboutTestsKeepsTestsInTheirPlace
mutant "a role filter replaces its demotion" rules/retrieval/roles.pl 's|              \\+ memberchk(Filter, A),|              true,|' ./rules -run TestRules
mutant "a demoting step spares the names" rules/retrieval/roles.pl 's|NWhys = \[because(rk_named_kept, \[names(Ns)\])\]|NWhys = []|' ./rules -run TestRules
mutant "whynot: examples(exclude) filters examples out" rules/retrieval/whynot.pl 's|^filters_out(examples(exclude), def(_, _, _, example, _, _)).||' ./rules -run TestRules
mutant "whynot: a demotion is named" rules/retrieval/whynot.pl 's|    memberchk(demote(Role), Args), !.|    memberchk(demote(nothing), Args), !.|' ./rules -run TestRules

# Hits carry what a host cites.
mutant "a hit has its document id" planner/search.go 's|ID: d.ID, Path: d.Path,|ID: d.Path, Path: d.Path,|' . -run TestHitsCarryWhatAHostNeedsToCiteThem
mutant "a hit has its role" planner/search.go 's|Role: retrieval.RoleOf(d), ContentHash|Role: "source", ContentHash|' . -run TestRoleFiltersAreHonouredInEveryMode
mutant "an answer names its snapshot" rlm.go 's|ans.Snapshot = snapshotID(at)|ans.Snapshot = nil|' . -run TestHitsCarryWhatAHostNeedsToCiteThem
mutant "the CLI marks tests and examples" cmd/rlm/output.go 's|extra = " \[" + h.Role + "\]"|extra = ""|' ./cmd/rlm -run TestSearchShowsRolesAndTheSnapshotTheAnswerCameFrom
mutant "the CLI names the snapshot" cmd/rlm/output.go 's|fmt.Fprintf(w, "snapshot: %s\\n", a.Snapshot)|fmt.Fprintln(w)|' ./cmd/rlm -run TestSearchShowsRolesAndTheSnapshotTheAnswerCameFrom
mutant "MCP carries the document id" mcp/tools.go 's|DocumentID: h.ID, Hit: h}|Hit: h}|' ./mcp -run TestSearchAndItsShortcutsAnswerLikeTheGoAPI

# A name the code itself defines spares no test or example of that name
# (rk_named_in_source): the snapshot says which names the code defines,
# the rules decide, the subject's definitions keep demotion's order.
NS='TestANameTheCodeDefinesSparesNoTestOfThatName'
mutant "the rules spare only names the code does not define" rules/retrieval/roles.pl 's|findall(N, ( member(N, Ns1), \\+ memberchk(N, Src) ), Ns),|findall(N, member(N, Ns1), Ns),|' . -run $NS
mutant "a name only tests define is spared" rules/retrieval/roles.pl 's|findall(named(N), member(N, Ns), Named),|Named = [],|' . -run $NS
mutant "the snapshot says which names the code defines" bridge/lexicon.go 's|return ask("source:"+name, req)|return false|' . -run $NS
mutant "a source look-up keeps only the code's definitions" bridge/lexicon.go 's|req.Filter.Roles = \[\]string{retrieval.RoleSource}|req.Filter.Roles = nil|' . -run $NS
mutant "the source names reach the rules" bridge/features.go 's|engine.Strings(f.SourceNames),|engine.Strings(nil),|' . -run $NS
mutant "an exact step ranked by its text keeps demotion's order" planner/search.go 's|cmp.Or(back(x)-back(y), at(x)-at(y))|cmp.Or(0*back(x)*back(y), at(x)-at(y))|' . -run $NS

# Why-not: a step that found fewer hits than the limit ranked nothing out
# (rules/retrieval/whynot.pl).
mutant "a step under the limit ranked the symbol out" rules/retrieval/whynot.pl 's|^    C >= Limit, !\.$|    true, !.|' ./rules -run TestRules/retrieval/whynot_test
