# Mutants for prompt/, rules/prompt/ and `rlm compile` (see scripts/mutants.sh).

# Selection and visibility (rules/prompt).
mutant "a capability-denied unit is not visible" rules/prompt/capabilities.pl 's#^    missing_capabilities(\[C|Cs\], G, \[M|Ms\]),$#    fail,#' ./prompt -run TestCapabilityDeniedToolIsNotVisible
mutant "host denial refuses a unit" rules/prompt/select.pl 's#u_host(U, denied), !,#u_host(U, selected), !,#' ./rules -run TestPromptRules
mutant "an always unit is wanted on any task" rules/prompt/select.pl 's#u_activation(U, always), !,#u_activation(U, relevant), !,#' ./prompt -run TestAlwaysToolIsActiveOnAnUnrelatedQuery
mutant "all_tools wants every tool" rules/prompt/select.pl 's#in_mode(In, all_tools),#in_mode(In, compiled),#' ./prompt -run TestAllToolsModeShowsEveryTool
mutant "a good lexical match is selected" rules/prompt/select.pl 's#^lexical_cut(12, 40)\.#lexical_cut(0, 40).#' ./prompt -run 'TestPlannerHidesAnIrrelevantTool|TestRelevantToolTurnsVisibleHiddenVisibleAcrossTurns'
mutant "a non-tool unit matching the task is selected" rules/prompt/select.pl 's#^decide_ranked(_, U, R, P, St) :-$#decide_ranked(_, U, _, _, idle(because(sel_not_relevant, []))) :- u_kind(U, K), \\+ tool_kind(K), !.\ndecide_ranked(_, U, R, P, St) :-#' ./prompt -run TestNonToolUnitMatchingTheQueryIsSelected
mutant "requires closure pulls dependencies in" rules/prompt/closure.pl 's#pull_required(Rs, because(cl_required, \[by(Id)\]), AV, \[in(N, W)|A0\], A1),#pull_required([], because(cl_required, [by(Id)]), AV, [in(N, W)|A0], A1),#' ./prompt -run TestRequiresClosurePullsDependenciesIn
mutant "a superseded unit is out" rules/prompt/conflicts.pl 's#superseded_by(Ss, N, Id, T, AV, Sup, Sup1),#superseded_by([], N, Id, T, AV, Sup, Sup1),#' ./prompt -run TestConflictsAndSupersessionResolveDeterministically
mutant "the conflict winner does not depend on order" rules/prompt/conflicts.pl 's#^    keysort(Ks, Sorted),#    Sorted = Ks,#' ./rules -run TestPromptRules
mutant "the stronger lexical match wins a conflict" rules/prompt/conflicts.pl 's#^rank_key(R, R)\.#rank_key(_, 0).#' ./prompt -run TestConflictsAndSupersessionResolveDeterministically
mutant "every prompt rule ID is registered" rules/prompt/closure.pl '/^rule_id(cl_suggested,/d' ./rules -run TestEveryRuleIDIsRegisteredAndUsed

# The protocol: answers decoded by shape.
mutant "a candidate decided twice is a RuleError" prompt/compile.go 's#if decided\[n-1\] {#if false \&\& decided[n-1] {#' ./prompt -run TestAnswersOutsideTheProtocolAreRuleErrors

# Packing, rendering, ledger, fingerprint.
mutant "mandatory units are packed first or fail" prompt/pack.go 's#if cd.unit.Mandatory {#if false \&\& cd.unit.Mandatory {#' ./prompt -run TestBudgetPackingNeverSilentlyDropsAMandatoryUnit
mutant "a packed-out tool is not sent" prompt/pack.go '/for _, cd := range p.active {/{n;s#if p.packed\[cd.n\] {#if true {#}' ./prompt -run TestOptionalToolSelectedThenPackedOutIsNotInTools
mutant "a packed-out dependency takes its dependents" prompt/pack.go 's#if p.out\[d.n\] \&\& blocked == nil {#if false \&\& p.out[d.n] \&\& blocked == nil {#' ./prompt -run TestPackedOutDependencyRemovesItsDependents
mutant "tool schemas are exactly the active tools" prompt/render.go 's#tools = append(tools, \*p.c.content.tool)#tools = append(tools, *p.c.content.tool, *p.c.content.tool)#' ./prompt -run TestToolSchemasAreASubsetOfActiveUnits
mutant "no schema is rendered twice" prompt/render.go 's#^\t\t\tif k.IsTool() {#\t\t\tif k.IsTool() { b.WriteString(p.c.content.text)#' ./prompt -run TestNoSchemaIsRenderedTwice
mutant "the prompt says active, never registered" prompt/render.go 's# active tools are available# registered tools are available#' ./prompt -run TestPromptSaysActiveNotRegistered
mutant "the fingerprint covers the projection" prompt/render.go 's#b, err := marshal(doc)#b, err := marshal(doc.Mode)#' ./prompt -run TestFingerprintIsStableForIdenticalInputAndChangesWithQueryOrActivation
mutant "the fingerprint is stable" prompt/render.go 's#^\treturn hash64(b), nil#\treturn fmt.Sprintf("%p", \&b), nil#' ./prompt -run TestFingerprintIsStableForIdenticalInputAndChangesWithQueryOrActivation
mutant "the ledger counts the framing" prompt/pack.go 's#framing: framing, textTok: framing}#framing: framing, textTok: 0}#' ./prompt -run TestLedgerCountsExactlyWhatIsSent
mutant "the encoding follows the model" prompt/tokens.go 's#"gpt-4o", "chatgpt-4o"#"chatgpt-4o"#' ./prompt -run TestEncodingIsChosenByModel

# Catalog lifecycle and files.
mutant "compile never releases the host's catalog" prompt/compile.go 's#^\tif err := cat.checkUsable(); err != nil {#\tdefer cat.Release()\n\tif err := cat.checkUsable(); err != nil {#' ./prompt -run TestHostOwnedCatalogIsNeverReleasedByCompile
mutant "a released catalog refuses to compile" prompt/catalog.go 's#return \(nil, \)\{0,1\}ErrReleased#return \1nil#' ./prompt -run TestReleaseIsIdempotentAndFreesTheIndex
mutant "catalog errors name the field's line" prompt/load.go 's#^\t\t\tp.Line = line$#\t\t\tp.Line = line + 1#' ./prompt -run TestCatalogFileErrorsNameFileAndLine
mutant "unknown fields are refused" prompt/load.go 's#r.add(i, key.Line, id, "", "unknown field %q", clipID(name))#_ = name#' ./prompt -run TestCatalogFileErrorsNameFileAndLine
mutant "a dangling relation is refused" prompt/catalog.go 's#^\t\t\tcase !ok:#\t\t\tcase !ok \&\& false:#' ./prompt -run 'TestCatalogFileErrorsNameFileAndLine|TestNewCatalogRefusesInvalidUnits'
mutant "a duplicate id is refused" prompt/catalog.go 's#dup \&\& u.ID != ""#dup \&\& false#' ./prompt -run TestCatalogFileErrorsNameFileAndLine
mutant "a tool schema must describe an object" prompt/unit.go 's#t != "object" {#t != "object" \&\& false {#' ./prompt -run 'TestCatalogFileErrorsNameFileAndLine|TestNewCatalogRefusesInvalidUnits|TestCatalogErrorMessagesArePlainSortedAndComplete'

# The CLI.
mutant "rlm compile explains every unit" cmd/rlm/compile.go 's#if decided\[u.ID\] {#if true {#' ./cmd/rlm -run TestCompileShowsWhyEveryUnitIsInOrOut
mutant "a hook clause's rule ID counts as used" rules/prompt/select.pl '/^rule_id_head(extra_select\/4)\./d' ./cmd/rlm -run TestTestRulesAcceptsAPromptHookExtension
mutant "singular and plural find each other" prompt/catalog.go 's|Doc:       u.Description + otherNumberForms(u.Description),|Doc:       u.Description,|;s|+ otherNumberForms(strings.Join(u.Keywords, " ")+" "+u.Title),|,|' ./prompt -run TestSingularAndPluralFindEachOther
mutant "catalog schemas are checked against the meta-schema" prompt/unit.go 's|	if _, err := schemacheck.Compile(raw); err != nil {|	if _, err := schemacheck.Compile(raw); err != nil \&\& false {|' ./prompt -run TestCatalogAndRegistryAgreeOnSchemas

# Review fixes (prompt2).
mutant "a mandatory unit is a candidate of every compile" prompt/compile.go 's#^\tfor _, i := range cat.mandate {#\tfor _, i := range cat.mandate[:0] {#' ./prompt -run TestMandatoryUnitsAreAlwaysDecided
mutant "no catalog unit takes the reserved id prefix" prompt/catalog.go 's#if strings.HasPrefix(u.ID, ReservedPrefix) {#if false \&\& strings.HasPrefix(u.ID, ReservedPrefix) {#' ./prompt -run TestReservedIDPrefixIsRefusedInCatalogs
mutant "a packed-out unit takes what was pulled in only for it" prompt/pack.go 's#if !cd.pulled || p.fixed\[cd.n\]#if true || p.fixed[cd.n]#' ./prompt -run TestPackedOutUnitLeavesNoRequirementBehind
mutant "a pulled unit another unit still requires stays" prompt/pack.go 's#if y != cd \&\& !p.out\[y.n\] \&\&#if false \&\& y != cd \&\& !p.out[y.n] \&\&#' ./prompt -run TestPackedOutUnitLeavesNoRequirementBehind
mutant "a pulled mandatory unit stays" prompt/pack.go 's#if !cd.pulled || p.fixed\[cd.n\] ||#if !cd.pulled ||#' ./prompt -run TestPackedOutUnitLeavesNoRequirementBehind
mutant "the rules mark pulled units" rules/prompt/closure.pl 's#pull_required(Rs, W, AV, \[in(R, W, pulled)|A0\], A)#pull_required(Rs, W, AV, [in(R, W)|A0], A)#' ./prompt -run TestPackedOutUnitLeavesNoRequirementBehind
mutant "only in(N, B, pulled) has three arguments" prompt/compile.go 's#len(d.Args) == 3 \&\& d.Args\[2\] == engine.AtomValue("pulled")#len(d.Args) == 3#' ./prompt -run TestAnswersOutsideTheProtocolAreRuleErrors
mutant "catalog problems are listed in line order" prompt/load.go 's#slices.SortStableFunc(problems, func(a, b problem) int { return cmp.Compare(a.Line, b.Line) })#slices.SortStableFunc(problems, func(a, b problem) int { return cmp.Compare(0, 0) })#' ./prompt -run TestCatalogErrorMessagesArePlainSortedAndComplete
mutant "a wrong type does not hide the problems after it" prompt/load.go 's#^\tc, found := prepare(units, opts)#\tc, found := prepare(units, opts)\n\tif len(r.problems) > 0 { found = nil }#' ./prompt -run TestCatalogErrorMessagesArePlainSortedAndComplete
mutant "catalog messages use the right article" prompt/unit.go 's#return "an instruction"#return "a instruction"#' ./prompt -run TestCatalogErrorMessagesArePlainSortedAndComplete
mutant "a value that was not read is not reported twice" prompt/load.go 's#^\t\t\tcontinue // the value was not read#\t\t\t// the value was not read#' ./prompt -run TestCatalogErrorMessagesArePlainSortedAndComplete
mutant "a multi-line reason stays inside its entry" prompt/unit.go 's#strings.ReplaceAll(p.String(), "\\n", "\\n    ")#p.String()#' ./prompt -run TestMultiLineReasonsStayInsideTheirEntry
mutant "C1 controls never reach the terminal" internal/termsafe/termsafe.go 's#r >= 0x7f \&\& r <= 0x9f#r == 0x7f#' ./internal/termsafe
mutant "bytes that are not UTF-8 never reach the terminal" internal/termsafe/termsafe.go 's#^\t\tif utf8.ValidString(s) {#\t\tif utf8.ValidString(s) || true {#' ./internal/termsafe
mutant "tabs pass to the terminal" internal/termsafe/termsafe.go "s#r < 0x20 \&\& r != '\\\\n' \&\& r != '\\\\t'#r < 0x20 \&\& r != '\\\\n'#" ./internal/termsafe
mutant "rlm compile prints the prompt without control sequences" cmd/rlm/compile.go 's#fmt.Fprint(w, termsafe.String(out.Text))#fmt.Fprint(w, out.Text)#' ./cmd/rlm -run TestCompileNeverPrintsControlSequences
mutant "rlm compile --json escapes C1 controls" cmd/rlm/search.go 's|_, err := io.WriteString(w, termsafe.JSON(buf.String()))|_, err := io.WriteString(w, termsafe.JSON("")+buf.String())|' ./cmd/rlm -run TestCompileNeverPrintsControlSequences
mutant ":compile without a query prints its usage" cmd/rlm/repl.go 's#case isCompile \&\& q == "":#case false:#' ./cmd/rlm -run TestReplCompileWithoutAQueryPrintsItsUsage
mutant ":why without a query prints its usage" cmd/rlm/repl.go 's#case !isCompile \&\& (unit == "" || q == ""):#case !isCompile \&\& unit == "":#' ./cmd/rlm -run TestReplCompileWithoutAQueryPrintsItsUsage
mutant "a registry tool without a description gets one" prompt/tools.go 's#desc = "tool " + s.Name#desc = ""#' ./prompt -run TestUnitsFromToolsNeverFailOnADescription
mutant "a registry tool's long description is clipped" prompt/tools.go 's#Description:  textclip.Fit(desc, MaxDescriptionBytes),#Description:  textclip.Fit(desc, 1<<30),#' ./prompt -run TestUnitsFromToolsNeverFailOnADescription
mutant "the prompt compiler doc shows only compiled calls" docs/prompt-compiler.md 's#c, err := rlm.NewCompiler("")#c, err := rlm.NewCompiler(rlm.CompilerOptions{})#' . -run TestPromptCompilerDocSnippetIsACompiledExample
mutant "bidi overrides never reach the terminal" internal/termsafe/termsafe.go 's#|| bidiControl(r)$#|| false \&\& bidiControl(r)#' ./internal/termsafe
mutant "extra tool units give their schema" prompt/catalog.go 's|^\(\t*\)units\[i\].Kind, units\[i\].Schema = u.Kind, u.Schema$|\1_ = u|' ./prompt -run TestExtraToolUnitsGiveTheirSchema
mutant "a banned unit is never plain-active" rules/prompt/closure.pl '/^plain_wanted(\[N-W|Ws\], T, BanV, AV/,/var(X), !,/s#^    var(X), !,#    !,#' ./rules -run TestPromptRules
mutant "a suggested unit is marked pulled" rules/prompt/closure.pl 's#\[in(S, because(cl_suggested, \[by(By)\]), pulled)|A0\]#[in(S, because(cl_suggested, [by(By)]))|A0]#' ./rules -run TestPromptRules
mutant "a catalog unit cannot hide an extra unit of another kind" prompt/catalog.go 's#^\t\t\tcase units\[i\].Kind.IsTool() != u.Kind.IsTool():#\t\t\tcase false:#' ./prompt -run TestACatalogUnitCannotHideAnExtraUnitOfAnotherKind

# A catalog is checked, rendered and counted on every core (forEach).
mutant "forEach covers every index of a chunk" prompt/catalog.go 's#for i := lo; i < min(lo+forEachChunk, n); i++ {#for i := lo; i < min(lo+forEachChunk-1, n); i++ {#' ./prompt -run TestForEachCallsEveryIndexExactlyOnce
mutant "each unit's own problems are kept" prompt/catalog.go 's#^\t\tproblems = append(problems, own\[i\]...)#\t\tproblems = append(problems, own[i][min(1, len(own[i])):]...)#' ./prompt -run TestALargeCatalogsProblemsAreAllReportedInUnitOrder
mutant "each unit's content is its own" prompt/catalog.go 's#c.contents\[i\], errs\[i\] = contentOf(&c.units\[i\])#c.contents[i], errs[i] = contentOf(\&c.units[i/2*2])#' ./prompt -run TestALargeCatalogCountsEveryUnitsOwnTokens
mutant "each unit's tokens are its own" prompt/catalog.go 's#cs\[i\], errs\[i\] = countTokens(enc, c.contents\[i\].text)#cs[i], errs[i] = countTokens(enc, c.contents[i/2*2].text)#' ./prompt -run TestALargeCatalogCountsEveryUnitsOwnTokens

# The memo of rule answers (prompt/memo.go): an answer is reused only for
# the very terms it was given.
mutant "the memo key follows the input term" prompt/compile.go 's#memoKey(in, table, called, ranked)#memoKey(table, called, ranked)#' ./prompt -run TestMemoizedAnswerChangesWithItsInput
mutant "the memo key follows the candidate table" prompt/compile.go 's#memoKey(in, table, called, ranked)#memoKey(in, called, ranked)#' ./prompt -run TestMemoizedAnswerChangesWithItsInput
mutant "the memo key follows the candidate order" prompt/compile.go 's#memoKey(in, table, called, ranked)#memoKey(in, table)#' ./prompt -run TestMemoFollowsTheCandidateOrder
mutant "the memo key encodes the terms" prompt/memo.go 's#^	return string(b), true$#	return "", true#' ./prompt -run TestMemoizedAnswerChangesWithItsInput
mutant "the memo forgets its oldest answer when full" prompt/memo.go 's#if len(m.order) >= m.max {#if false \&\& len(m.order) >= m.max {#' ./prompt -run TestMemoKeepsAtMostMemoSizeAnswers
mutant "a compiler with host predicates keeps no memo" prompt/compiler.go 's#size > 0 \&\& len(opts.Predicates) == 0#size > 0#' ./prompt -run TestCompilerWithHostPredicatesKeepsNoMemo
mutant "a token count is kept by the text's hash" prompt/tokens.go 's#hash: xxhash.Sum64String(s), n: len(s)#hash: xxhash.Sum64String(""), n: len(s)#' ./prompt -run TestTokenCountMemoFollowsTheText
mutant "a token count is kept by encoding" prompt/tokens.go 's#k := tokenKey{enc: enc, #k := tokenKey{#' ./prompt -run TestTokenCountMemoFollowsTheText
mutant "only the exact bytes of an accepted schema skip the check" prompt/unit.go 's#ok := validSchemas.raw\[string(raw)\]#ok := len(validSchemas.raw) > 0#' ./prompt -run TestSchemaCheckMemoRefusesAChangedSchema
mutant "a kept index image is opened only for the same units" prompt/indeximage.go 's#b, err := json.Marshal(docs)#b, err := json.Marshal(len(docs))#' ./prompt -run TestCatalogIndexImageFollowsTheUnits

# Plain units filed as they are examined (rules/prompt/compile.pl): the
# default rules decide as the reference pipeline (prompt/testdata/reference-rules).
mutant "a unit that lists conflicts is not plain" rules/prompt/compile.pl 's#^    arg(13, U, \[\]),                     % conflicts with nothing#    true,#' ./rules -run TestPromptRules
mutant "a unit that lists supersedes is not plain" rules/prompt/compile.pl 's#^    arg(14, U, \[\]), !,                  % supersedes nothing#    !,#' ./rules -run TestPromptRules
mutant "a unit that suggests is not plain" rules/prompt/compile.pl '/^file_unit(wanted(B)/,/^    arg(12, U/s#^    arg(12, U, \[\]),                     % suggests nothing#    true,#' ./rules -run TestPromptRules
mutant "the first round ends only without relations" rules/prompt/compile.pl 's#^    no_relations(Pulled, T), !,#    !,#' ./rules -run TestPromptRules
mutant "units that list conflicts but pull nothing are checked" rules/prompt/compile.pl 's#^    append(PlainRel, Plain, Plains0),#    Plains0 = Plain,#' ./prompt -short -run 'TestDefaultRulesDecideAsTheReferencePipeline/relational_(40|200)$'
mutant "later rounds close every wanted unit again" rules/prompt/compile.pl 's#^    in_pairs(Plains, Linked, Wanted0),#    Wanted0 = Linked,#' ./prompt -short -run 'TestDefaultRulesDecideAsTheReferencePipeline/relational_(40|200)$'
mutant "a banned unit is reported once, for its conflict" rules/prompt/compile.pl '/^outs(\[N|Ns\], SV, AV, BanV, Outs) :-/,/^    var(Y), !,/s#^    var(Y), !,#    !,#' ./prompt -short -run 'TestDefaultRulesDecideAsTheReferencePipeline/relational_(40|200)$'
mutant "a ranked unit that needs a capability is checked" rules/prompt/select.pl 's#^    arg(10, U, \[\]), !,                  % needs no capability#    !,#' ./prompt -short -run 'TestDefaultRulesDecideAsTheReferencePipeline/relational_(40|200)$'
mutant "the lexical cut's minimum score holds for ranked units" rules/prompt/compile.pl 's#^    Pc >= Mn, !,#    !,#' ./rules -run TestPromptRules
