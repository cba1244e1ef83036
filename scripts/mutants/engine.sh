# Mutants for engine/ and internal/plsyntax/ (see scripts/mutants.sh).

# Load errors: positions and plain words.
mutant "LoadError columns are 1-based" engine/load.go 's#Column: col + 1,#Column: col,#' ./engine -run 'TestLoadErrorsPointAtTheClauseNotAtAnEarlierMention'
mutant "a syntax error is reported at the offending token" engine/load.go 's#le := f.errorAt(se.Offset, "", "")#le := f.errorAt(c.Start, "", "")#' ./engine -run 'TestSyntaxErrorsAreReportedAtTheOffendingTokenInPlainWords'
mutant "parser errors are translated into plain words" internal/plsyntax/read.go 's#^\tcase isToken:#\tcase isToken \&\& false:#' ./engine -run 'TestSyntaxErrorsAreReportedAtTheOffendingTokenInPlainWords'
mutant "a term on a new line reads as a missing end" internal/plsyntax/read.go 's#if startsLine(src, toks\[i\].Start) \&\&#if false \&\& startsLine(src, toks[i].Start) \&\&#' ./internal/plsyntax -run 'TestReadClauseExplainsErrorsAtTheOffendingToken'
mutant "an unmatched close bracket is unbalanced" internal/plsyntax/read.go 's#if len(opens) == 0 {#if len(opens) < 0 {#' ./internal/plsyntax -run 'TestReadClauseExplainsErrorsAtTheOffendingToken'
mutant "split clauses are refused at their line" engine/checks.go 's#ok \&\& !allowed\[c.indicator\] {#ok \&\& false {#' ./engine -run 'TestDiscontiguousClausesAreRefusedAtTheirLine'

# Undefined predicates.
mutant "rule bodies are checked for undefined calls" engine/policy.go 's#if err := e.checkCalls(f, nil); err != nil {#if err := e.checkCalls(f, nil); err != nil \&\& false {#' ./engine -run 'TestUndefinedPredicatesAreRefusedAtTheGoal'
mutant "goal arguments of meta-predicates are walked" internal/plsyntax/goals.go 's#for _, m := range meta {#for _, m := range meta[:0] {#' ./engine -run 'TestUndefinedPredicatesAreRefusedAtTheGoal'
mutant "a closure is called with the extra arguments" internal/plsyntax/goals.go 's#w.goal(cp.Arg(m.Index), m.Extra, module, depth+1)#w.goal(cp.Arg(m.Index), 0, module, depth+1)#' ./engine -run 'TestUndefinedPredicatesAreRefusedAtTheGoal'
mutant "a nonterminal is called with two more arguments" internal/plsyntax/goals.go 's#Arity: arity + 2, Extra: 2#Arity: arity, Extra: 2#' ./engine -run 'TestUndefinedPredicatesAreRefusedAtTheGoal'
mutant "declared dynamic or multifile counts as defined" engine/policy.go 's#if !isTest \&\& c.declKind != "discontiguous" {#if false {#' ./engine -run 'TestUndefinedPredicatesAreRefusedAtTheGoal|TestUserLayerExtendsADefaultHook'
mutant "near misses within edit distance 2 are hinted" engine/checks.go 's#if d > 2 || d >= utf8#if d > 0 || d >= utf8#' ./engine -run 'TestUndefinedPredicatesAreRefusedAtTheGoal'
mutant "test files are checked for undefined calls" engine/ruletest.go 's#if err := e.checkCalls(f, local); err != nil {#if err := e.checkCalls(f, local); err != nil \&\& false {#' ./engine -run 'TestUndefinedPredicatesInTestFilesAreRefusedButTheirHelpersCount'
mutant "a test file's helpers count as defined" engine/checks.go 's#(e.defined\[pi\] || local\[pi\])#(e.defined[pi])#' ./engine -run 'TestUndefinedPredicatesInTestFilesAreRefusedButTheirHelpersCount'

# Vocabulary.
mutant "an atom outside its vocabulary is refused" engine/vocab.go 's#\&\& !slices.Contains(a.Atoms, at.String()) {#\&\& slices.Contains(a.Atoms, at.String()) {#' ./engine -run 'TestVocabularyRefusesMisspelledDataAtItsToken'
mutant "a list member outside its vocabulary is refused" engine/vocab.go 's#if !ok || !slices.Contains(a.Members, got) {#if !ok {#' ./engine -run 'TestVocabularyRefusesMisspelledDataAtItsToken'
mutant "a vocabulary error points at the offending token" engine/vocab.go 's#^\t\tw.at = j$#\t\tw.at = tok#' ./engine -run 'TestVocabularyRefusesMisspelledDataAtItsToken'

# Layers.
mutant "layers load in order" engine/layers.go 's#return files\[i\].Layer < files\[j\].Layer#return files[i].Layer > files[j].Layer#' ./engine -run 'TestLayersLoadInOrderAndLaterFilesReplaceEarlierOnes'
mutant "a later file replaces the one at the same relative path" engine/layers.go 's#if keys\[i\] == src.Name || files\[i\].Name == src.Name {#if false {#' ./engine -run 'TestLayersLoadInOrderAndLaterFilesReplaceEarlierOnes'
mutant "only a top-level file replaces by base name" engine/layers.go 's#if path.Base(keys\[i\]) == src.Name {#if path.Base(keys[i]) == path.Base(src.Name) {#' ./engine -run 'TestLayersLoadInOrderAndLaterFilesReplaceEarlierOnes'
mutant "a flat override of two same-named files is ambiguous" engine/layers.go 's#^\tcase 1:$#\tcase 1, 2:#' ./engine -run 'TestFlatOverrideOfTwoFilesWithTheSameBaseNameIsAmbiguous'
mutant "testdata directories are skipped" engine/layers.go 's#name == "testdata" ||#name == "testdata-" ||#' ./engine -run 'TestLayersLoadInOrderAndLaterFilesReplaceEarlierOnes'
mutant "a rules directory without .pl files is refused" engine/layers.go 's#if n == 0 {#if n < 0 {#' ./engine -run 'TestRulesDirectoryMustHoldRuleFiles'
mutant "UserDir errors wrap the RulesDirError" engine/layers.go 's#return nil, \&LoadError{File: o.UserDir, Err: err}#return nil, \&LoadError{File: o.UserDir, Reason: err.Error()}#' ./engine -run 'TestRulesDirectoryMustHoldRuleFiles'
mutant "a symbolic link to a directory is not read" engine/layers.go 's#err == nil \&\& st.IsDir() {#err == nil \&\& st.IsDir() \&\& false {#' ./engine -run 'TestRuleDirectoryReadsOnlyBoundedRegularFiles'
mutant "a REPL query's second clause is refused" internal/plsyntax/read.go 's/if next, more := sc.Next(); more {/if next, more := sc.Next(); more \&\& next.Start < 0 {/' ./engine -run TestQueryTextSyntaxErrorsSayWhatAndWhere
mutant "a REPL query's syntax error says its column" engine/toplevel.go 's/if errors.As(err, \&se) {/if false \&\& errors.As(err, \&se) {/' ./engine -run TestQueryTextSyntaxErrorsSayWhatAndWhere

# Error words for rule authors and tool callers.
mutant "a decoded value is described by its Prolog type" engine/terms.go 's#return fmt.Sprintf("the integer %d", x)#return fmt.Sprintf("%T", x)#' ./engine -run 'TestDescribeNamesThePrologTypeOfAValueForRuleAuthors'
mutant "a long text is cut on a rune boundary" engine/terms.go 's#for n > 0 \&\& !utf8.RuneStart(s\[n\]) {#for n < 0 {#' ./engine -run 'TestDescribeNamesThePrologTypeOfAValueForRuleAuthors'
mutant "numeric bound messages are reworded" internal/schemacheck/schemacheck.go 's#return path, plainBound(msg)#return path, msg#' ./internal/schemacheck -run 'TestNumericBoundMessagesAreWordedWithPlainNumbers'
mutant "a fractional instance is shown as a decimal" internal/schemacheck/schemacheck.go 's#n = trimZeros(r.FloatString(6))#n = r.FloatString(6)#' ./internal/schemacheck -run 'TestNumericBoundMessagesAreWordedWithPlainNumbers'

# Ground-term keys (engine/groundkey.go) and OnceOutput.
mutant "chars and codes have different keys" engine/groundkey.go "s#tag = 'k'#tag = 's'#" ./engine -run TestGroundKeyIdentifiesTheTerm
mutant "a term with a variable has no key" engine/groundkey.go 's#^	return b, false$#	return b, true#' ./engine -run TestGroundKeyIdentifiesTheTerm
mutant "OnceOutput decodes the output argument" engine/engine.go 's#^				i += from$#				_ = from#' ./engine -run TestOnceOutputDecodesOnlyTheOutput
