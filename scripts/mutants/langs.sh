# Mutants for issue 11, every definition in every language: language
# detection (sourcefacts/detect.go), C/C++ declarators, JavaScript member
# definitions, Ruby setters, line endings, skipped files in the store and
# the answers (see scripts/mutants.sh).
P=./sourcefacts
S=./sourcefacts/store
D=sourcefacts/detect.go
H=sourcefacts/langhooks.go
mutant ".h with C++ constructs is C++" $D 's|return detected("cpp", fmt.Sprintf("content: C++ constructs|return detected("c", fmt.Sprintf("content: C++ constructs|' $P -run 'TestHeadersOfCPPAreReadAsCPPAndTheDecisionIsRecorded'
mutant "C's use of C++ words keeps a header C" $D 's|\treturn nameNext$|\treturn true|' $P -run 'TestDetectDecidesByExtensionShebangModeLineAndContent'
mutant "comments do not make a header C++" $D "s|case c == '/' \&\& i+1 < len(src) \&\& src\[i+1\] == '\*':|case false:|" $P -run 'TestDetectDecidesByExtensionShebangModeLineAndContent'
mutant "a Perl .pl is skipped as not ours" $D 's|return perlLine.Match(head)|return false|' $P -run 'TestPerlFilesAreSkippedAsNotOursNotErrors'
mutant "a python3 #! line makes a Python script" $D 's|"python": LangPython, "pypy"|"pythonx": LangPython, "pypy"|' $P -run 'TestScriptsWithoutAnExtensionAreReadByTheirShebangOrModeLine'
mutant "env -S options are skipped" $D 's|if strings.HasPrefix(a, "-") \|\| strings.Contains(a, "=") {|if false {|' $P -run 'TestScriptsWithoutAnExtensionAreReadByTheirShebangOrModeLine'
mutant "a mode line names the language" $D 's|if lang, mode := modeLine(head); mode != "" {|if lang, mode := modeLine(head); false \&\& mode != "" {|' $P -run 'TestScriptsWithoutAnExtensionAreReadByTheirShebangOrModeLine'
mutant "the lister lists scripts" sourcefacts/list.go 's|\treturn wants(d.Language)|\treturn false|' $P -run 'TestListerListsScriptsByContentAndAgreesWithIncludes'
mutant "a lone CR ends a line" sourcefacts/extract.go "s|out\[i\] = '\\\\n'|out[i] = '\\\\r'|" $P -run 'TestLineNumbersHoldForEveryLineEndingWithOrWithoutAByteOrderMark'
mutant "a BOM does not stop the Prolog reader" sourcefacts/extract.go 's|src = append(\[\]byte("   "), src\[3:\]...)|_ = src|' $P -run 'TestLineNumbersHoldForEveryLineEndingWithOrWithoutAByteOrderMark'
mutant "qualified names give the receiver" $H 's|out.qualifier = append(out.qualifier, scopeName(x, s))|_ = s|' $P -run 'TestCPPDefinitionsOutsideTheClassBodyAreClassMethodsWithTheBodysRangeAndCalls'
mutant "a qualifier extends the nesting container" sourcefacts/tssymbols.go 's|s.Container = join(s.Container, qualContainer)|_ = qualContainer|' $P -run 'TestCPPDefinitionsOutsideTheClassBodyAreClassMethodsWithTheBodysRangeAndCalls'
mutant "destructors are named" $H 's|case "identifier", "field_identifier", "destructor_name", "operator_name", "type_identifier":|case "identifier", "field_identifier", "operator_name", "type_identifier":|' $P -run 'TestCPPDefinitionsOutsideTheClassBodyAreClassMethodsWithTheBodysRangeAndCalls'
mutant "conversion functions are named operator T" $H 's|out.nameText = "operator " + |out.nameText = "" + |' $P -run 'TestCPPDefinitionsOutsideTheClassBodyAreClassMethodsWithTheBodysRangeAndCalls'
mutant "prototypes are declarations" $H 's|return KindPrototype, true|return KindFunction, true|' $P -run 'TestDefinitionsAreTellableFromPrototypesAndForwardDeclarations'
mutant "a class without a body is a forward declaration" $H 's|return KindDeclaration, true|return KindClass, true|' $P -run 'TestDefinitionsAreTellableFromPrototypesAndForwardDeclarations'
mutant "variables in functions are locals" sourcefacts/tssymbols.go 's|if x.g.spec.dropLocalVars {|if false \&\& x.g.spec.dropLocalVars {|' $P -run 'TestDefinitionsAreTellableFromPrototypesAndForwardDeclarations'
mutant "a function beats a constant of the same node" sourcefacts/tscaptures.go 's|same \&\& kindRank(d.kind) > kindRank(old.kind)|same \&\& false|' $P -run 'TestExtractLanguages'
mutant "Python assignments in functions are locals" sourcefacts/languages.go '/"python-tags.scm", "python-extra.scm"/,/dropLocalVars/s|dropLocalVars: true,|dropLocalVars: false,|' $P -run 'TestScriptsWithoutAnExtensionAreReadByTheirShebangOrModeLine'
mutant "a member assignment's function expression is no second definition" $H '/^func jsPrune/,/^}/s|\t\t\t\tcontinue$|\t\t\t\t_ = 0|' $P -run 'TestJSClassFieldsAndMemberAssignmentsAreDefinitionsNamedByTheirReceiver'
mutant "a member assignment is named by its receiver" $H 's|\ts.Receiver = recv$|\t_ = recv|' $P -run 'TestJSClassFieldsAndMemberAssignmentsAreDefinitionsNamedByTheirReceiver'
mutant "class fields holding functions are methods" sourcefacts/queries/javascript-extra.scm 's|value: \[(arrow_function) (function_expression) (generator_function)\]) @definition.method|value: [(class)]) @definition.method|' $P -run 'TestJSClassFieldsAndMemberAssignmentsAreDefinitionsNamedByTheirReceiver'
mutant "x.name = v calls name=" sourcefacts/tsrefs.go 's|\t\t\tname += "="|\t\t\tname += ""|' $P -run 'TestNamesKeepTheirLanguagesLegalCharacters'
mutant "a skipped file is current in the store" sourcefacts/store/writefile.go 's|status, errText, skipped = sourcefacts.StatusCurrent, "", ff.Error|status, errText, skipped = sourcefacts.StatusError, ff.Error, ""|' $S -run 'TestSkippedFilesAreCurrentWithTheirReasonAndFollowTheSizeCap'
mutant "a change of the size cap re-reads the files it concerns" sourcefacts/store/validate.go 's|return strings.HasPrefix(r.skipped, sourcefacts.SkipTooLarge) == (o.hash.Len > s.maxBytes)|return true|' $S -run 'TestSkippedFilesAreCurrentWithTheirReasonAndFollowTheSizeCap'
mutant "answers name the files over the cap" rlm.go 's|if strings.HasPrefix(f.Error, sourcefacts.SkipTooLarge) {|if false \&\& strings.HasPrefix(f.Error, sourcefacts.SkipTooLarge) {|' ./cmd/rlm -run 'TestStatusNamesSkippedFilesAndLanguageDecisionsAndAnswersNameFilesOverTheCap'
mutant "status lists skipped files" project/status.go 's|if s.Skipped, err = sn.Skipped(ctx); err != nil {|if _, err = sn.Skipped(ctx); err != nil {|' ./cmd/rlm -run 'TestStatusNamesSkippedFilesAndLanguageDecisionsAndAnswersNameFilesOverTheCap'
mutant "the definition is answered before its prototype" $H 's|return KindPrototype, true|return KindFunction, true|' ./cmd/rlm -run 'TestTheDefinitionIsAnsweredBeforeItsPrototype'
mutant "a forward declaration is not the class" $H 's|return KindDeclaration, true|return KindClass, true|' ./cmd/rlm -run 'TestTheDefinitionIsAnsweredBeforeItsPrototype'
mutant "attr_accessor defines the setter too" sourcefacts/tssymbols.go 's|\t\ts.Name += "="|\t\ts.Name += ""|' $P -run 'TestNamesKeepTheirLanguagesLegalCharacters'
mutant "a store opened without a cap keeps the one it was given" sourcefacts/store/store.go 's/if s.maxBytes == 0 \&\& settings {/if s.maxBytes == 0 \&\& !settings {/' ./sourcefacts/store -run TestSkippedFilesAreCurrentWithTheirReasonAndFollowTheSizeCap
mutant "a Prolog predicate is found by its name alone" retrieval/embedded/search.go 's/d.symbol > ? || '"'"'\/'"'"' AND/d.symbol > ? || '"'"'\/~'"'"' AND/' . -run TestPrologPredicatesAreFoundByNameOrIndicator

# Prolog source: a clause that cannot be read is skipped, not the end of
# the file; SWI-Prolog's declaration operators read (prologsrc).
mutant "reading goes on after a clause that cannot be read" sourcefacts/prologsrc/prologsrc.go 's|^\t\tr.res.Skipped++$|\t\treturn false|' ./sourcefacts/prologsrc -run TestParseErrors
mutant "declaration operators are installed" sourcefacts/prologsrc/prologsrc.go 's|\tif err := installDirectiveOps(declVM); err != nil {|\tif err := error(nil); err != nil {|' ./sourcefacts -run TestExtractPrologStatus
mutant "a clause is read with the ISO table first" sourcefacts/prologsrc/prologsrc.go 's|terms, err := plsyntax.ReadClause(r.vm, r.src, c)|terms, err := plsyntax.ReadClause(r.declVM, r.src, c)|' ./sourcefacts/prologsrc -run TestParseErrors
mutant "a bad clause does not split a predicate's definition" sourcefacts/prologsrc/prologsrc.go 's|^\t\tr.res.Skipped++$|\t\tr.res.Skipped++\n\t\tr.hasLast = false|' ./sourcefacts/prologsrc -run TestParseErrors
mutant "a ProGuard .pro is skipped as not ours" $D 's|case proGuardLine.Match(head):|case false:|' $P -run 'TestProFilesThatAreNotPrologAreSkippedAsNotOursNotErrors'
mutant "a qmake .pro is skipped as not ours" $D 's|case qmakeLine.Match(head):|case false:|' $P -run 'TestProFilesThatAreNotPrologAreSkippedAsNotOursNotErrors'
mutant "a .pro starting with a # comment is skipped as not ours" $D 's|case hashComment.Match(head):|case false:|' $P -run 'TestProFilesThatAreNotPrologAreSkippedAsNotOursNotErrors'
mutant "a #! line is not a # comment" $D 's|#(?:\[ \\t#\]|#(?:[ \\t#!]|' $P -run 'TestDetectDecidesByExtensionShebangModeLineAndContent'
mutant "only .pro files are checked for ProGuard and qmake" $D 's|if strings.EqualFold(ext, ".pro") {|if true {|' $P -run 'TestDetectDecidesByExtensionShebangModeLineAndContent'
mutant "a ProGuard option starts with -, a Prolog keep(X) goal is none" $D 's|-(?:keep\[a-z\]\*|-?(?:keep[a-z]*|' $P -run 'TestDetectDecidesByExtensionShebangModeLineAndContent'
