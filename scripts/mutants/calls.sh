# Mutants for call resolution and the callers rules (issue 10, faults 4
# and 5; see scripts/mutants.sh).

# sourcefacts: what a file's syntax says about a call.
mutant "a package qualifier resolves to its import path" sourcefacts/tsresolve.go 's|r.Via, r.Module = ViaImport, t.module|r.Via, r.Module = ViaImport, ""|' ./sourcefacts -run TestCallsResolveFromTheFilesOwnSyntax
mutant "a local binding is visible only after its declaration" sourcefacts/tsresolve.go 's#|| !b.file \&\& b.from > pos {#|| false {#' ./sourcefacts -run TestCallsResolveFromTheFilesOwnSyntax
mutant "the innermost binding of a name wins" sourcefacts/tsresolve.go 's|best == nil \|\| b.scope.start > best.scope.start|best == nil \|\| b.scope.start < best.scope.start|' ./sourcefacts -run TestCallsResolveFromTheFilesOwnSyntax
mutant "a type switch case of several types gives no type" sourcefacts/tscaptures.go 's|ChildrenByFieldName("type", cur)) > 1|ChildrenByFieldName("type", cur)) > 3|' ./sourcefacts -run TestCallsResolveFromTheFilesOwnSyntax
mutant "a field of a receiver is a path step" sourcefacts/callhooks.go 's|base.path = append(slices.Clone(base.path), x.text(f, 256))|base.path = slices.Clone(base.path)|' ./sourcefacts -run TestCallsResolveFromTheFilesOwnSyntax
mutant "a call's result is a path step" sourcefacts/callhooks.go 's|base.path\[len(base.path)-1\] += "()"|base.path[len(base.path)-1] += ""|' ./sourcefacts -run TestCallsResolveFromTheFilesOwnSyntax
mutant "a binding of a call's second result says so" sourcefacts/tsresolve.go 's|r.path\[n-1\]+strconv.Itoa(b.result))|r.path[n-1]+strconv.Itoa(0))|' ./sourcefacts -run TestCallsResolveFromTheFilesOwnSyntax

# sourcefacts: Scopes, across the tree.
mutant "an import votes for an offset only if it names the scope's package" sourcefacts/scopetable.go 's|return o, qualifierName(key, root) == lastName(p, lang)|return o, true|' ./sourcefacts -run TestScopesMapImportsToTheTreeByTheirCommonSuffix
mutant "a method promoted through an embedded field is found" sourcefacts/scopes.go 's|if sc, t, d, ok := s.memberIn(e.scope, e.typ, name, depth+1, failed); ok {|if sc, t, d, ok := s.memberIn(e.scope, e.typ, name, depth+1, failed); false \&\& ok {|' ./sourcefacts -run TestScopesFollowReceiversAcrossFiles
mutant "a type that failed is not searched again at its depth or deeper (linear, not exponential, in dense class graphs)" sourcefacts/scopes.go 's|if d, ok := (\*failed)\[k\]; ok \&\& depth >= d {|if d, ok := (*failed)[k]; false \&\& ok \&\& depth >= d {|' ./sourcefacts -run TestInheritedMethodLookupIsLinearInTheBasesOfADenseClassGraph
mutant "a type met again shallower than it failed is searched again (memo agrees with the plain search)" sourcefacts/scopes.go 's|if d, ok := (\*failed)\[k\]; ok \&\& depth >= d {|if _, ok := (*failed)[k]; ok {|' ./sourcefacts -run TestMemoisedMemberLookupAgreesWithThePlainDepthFirstSearch
mutant "an element of a slice type is its element type" sourcefacts/gotypes.go 's|return strings.TrimSpace(t\[2:\])|return ""|' ./sourcefacts -run TestScopesFollowReceiversAcrossFiles
mutant "a dot import's package holds the file's unqualified names" sourcefacts/scopes.go 's|					out = append(out, sc)|					_ = sc|' ./sourcefacts -run TestScopesFollowReceiversAcrossFiles
mutant "an unimported Java class outside the package is java.lang's" sourcefacts/scopes.go 's|return CallTarget{Via: r.Via, Scope: extScope + "java.lang", Type: r.Type}|return CallTarget{}|' ./sourcefacts -run TestScopesResolveModulesOfOtherLanguages
mutant "a Python relative import counts its dots" sourcefacts/scopes.go 's|for i := 1; i < len(spec)-len(rest); i++ {|for i := 0; i < len(spec)-len(rest); i++ {|' ./sourcefacts -run TestScopesResolveModulesOfOtherLanguages

# store: the facts survive the round trip.
mutant "schema 6 adds the calls' resolution" sourcefacts/store/schema.go '/ADD COLUMN via TEXT/d' ./sourcefacts/store -run TestSchema6KeepsOlderFactsAndResolvesCallsOnReextraction
mutant "a declaration's written type is stored" sourcefacts/store/packed.go 's|^\t\tw.str(y.Type)$|\t\tw.str("")|' ./sourcefacts/store -run TestSchema6KeepsOlderFactsAndResolvesCallsOnReextraction

# retrieval/embedded: matching calls to the definitions a name denotes.
mutant "a resolved call matches only its own definition" retrieval/embedded/callers.go 's|case !ext \&\& targets\[callTarget{scope, typ, base}\]:|case !ext:|' ./retrieval/embedded -run TestCallersFollowResolvedCallsNotNames
mutant "Resolved drops the matches by name" retrieval/embedded/callers.go 's|m == retrieval.MatchName \&\& req.Resolved|m == retrieval.MatchName \&\& false|' ./retrieval/embedded -run TestCallersFollowResolvedCallsNotNames
mutant "an external call matches only its qualifier" retrieval/embedded/callers.go '/^func endsWithNames/a\	return true' ./retrieval/embedded -run TestCallersFollowResolvedCallsNotNames
mutant "a scope-qualified name denotes that scope's definition" retrieval/embedded/callers.go '/^func scopeQualified/,/^}/s|if qual == "" {|if true {|' ./retrieval/embedded -run 'TestCallersFollowResolvedCallsNotNames|TestExactFindsScopeQualified'
mutant "exact reads a name as scope-qualified only when nothing else matches" retrieval/embedded/search.go 's|	if err != nil \|\| len(hits) > 0 {|	if err != nil {|' ./retrieval/embedded -run TestExactFindsScopeQualifiedNamesOnlyWhenNothingElseMatches

# rules: what of a callers step is evidence.
mutant "a callers step keeps only resolved calls" rules/retrieval/callers.pl 's|name(T), match(resolved)\], evidence)) :- !.|name(T)], evidence)) :- !.|' ./rules -run TestRules
mutant "an undefined name is asked for its call sites" rules/retrieval/callers.pl 's|\\+ tried_graph(H, T, resolved), !,|fail, !,|' ./rules -run TestRules
mutant "a qualified name nothing defines or calls is settled" rules/retrieval/callers.pl 's|Q = \[_\|_\], N = \[_\|_\], !.|Q = [_\|_], N = [_\|_], fail.|' ./rules -run TestRules
mutant "calls by name follow when nothing resolves" rules/retrieval/callers.pl 's|\\+ tried_graph(H, T, by_name).|fail.|' ./rules -run TestRules
mutant "no fuzzy retarget for a qualified relation target" rules/retrieval/strategy.pl 's|\\+ ( Class == relationship, qualified_name(T) ),|true,|' ./rules -run TestRules
mutant "a fallback's step is not run twice" rules/retrieval/evidence.pl 's|(   memberchk(S, Drop)|(   fail|' ./rules -run TestRules
mutant "the façade answers fault 5 with external call sites" rules/retrieval/callers.pl 's|\\+ tried_graph(H, T, resolved), !,|fail, !,|' . -run TestCallersOfANameDefinedOutsideTheTreeAreItsCallSites

# The CLI and the measuring stick.
mutant "an answer for another name says so first" cmd/rlm/output.go '0,/if a.Resolved != nil {/s//if false {/' ./cmd/rlm -run TestSearchGapFallbackIsExplained
mutant "the callers task qualifies an ambiguous name by its package" eval/callers.go 's|if same > 1 \&\& d.Package != ""|if same > 1000 \&\& d.Package != ""|' ./eval -run TestCallersTaskNamesEachTargetAsAUserMust

# C++: classes by name across the tree.
mutant "a C++ qualified call's scope is a class" sourcefacts/callhooks.go 's|case "namespace_identifier", "type_identifier", "template_type", "qualified_identifier":|case "-":|' ./sourcefacts -run TestCallsResolveFromTheFilesOwnSyntax
mutant "this in an out-of-class method is its class" sourcefacts/tsresolve.go 's|if (head == "this" \|\| head == "self") \&\& len(rest) == 0 {|if head == "-" \&\& len(rest) == 0 {|' ./sourcefacts -run TestCallsResolveFromTheFilesOwnSyntax

# Callees follow resolved calls and name the rest as such
# (retrieval/embedded/callees.go).
CE='./retrieval/embedded -run TestCalleesFollowResolvedCallsAndNameTheRestAsSuch'
mutant "by-name callees include the caller" retrieval/embedded/callees.go 's|			case c.scope == "" \&\& !sources\[d.rid\]:|			case c.scope == "":|' $CE
mutant "a resolved call leads to every definition of its name" retrieval/embedded/callees.go 's|			case c.scope != "" \&\& d.target == (callTarget{c.scope, c.typ, c.name}):|			case c.scope != "":|' $CE
mutant "a local function value's call leads to a definition" retrieval/embedded/callees.go 's|		if c.via == "local" \|\| |		if |' $CE
mutant "by-name callees rank with the resolved" retrieval/embedded/callers.go 's|		return cmp.Or(cmp.Compare(matchRank(a.match), matchRank(b.match)), cmp.Compare(a.test, b.test),|		return cmp.Or(cmp.Compare(a.test, b.test),|' $CE

# The calls by name alone of a qualified target no call resolves to keep
# the gap open (rules/retrieval/evidence.pl answered_for).
mutant "calls by name answer a qualified target" rules/retrieval/evidence.pl 's|^    qualified_name(T),$|    fail,|' ./rules -run TestRules/retrieval/evidence_test
mutant "calls by name of a plain target keep a gap" rules/retrieval/evidence.pl '/^answered_for(enough, _, \[result(step(graph, A, evidence)/,/!\./ s|^    qualified_name(T),$|    true,|' ./rules -run TestRules/retrieval/evidence_test

# A Python method call through self resolves to the base class that
# defines the method (sourcefacts: resolveBase, classBases, embeddedOf).
mutant "python bases are not marked" sourcefacts/queries/python-extra.scm 's|  (#set! reference.base "true"))|  )|' ./sourcefacts -run TestAPythonMethodCallResolvesToTheBaseClassThatDefinesIt
mutant "reference.base is not read" sourcefacts/queries.go 's|pi.base = true|pi.base = false|' ./sourcefacts -run 'TestAPythonMethodCallResolvesToTheBaseClassThatDefinesIt|TestAnInheritedMethodResolvesToItsBaseInJavaAndJavaScript'
mutant "java bases are not marked" sourcefacts/queries/java-extra.scm 's|  (#set! reference.base "true"))|  )|' ./sourcefacts -run TestAnInheritedMethodResolvesToItsBaseInJavaAndJavaScript
mutant "every class reference is a base (new X())" sourcefacts/tsresolve.go 's|r.Kind == RefClass \&\& c.bases\[uint(r.Range.StartByte)\]|r.Kind == RefClass|' ./sourcefacts -run TestAnInheritedMethodResolvesToItsBaseInJavaAndJavaScript
mutant "a java base of the package in another file is not followed" sourcefacts/tsresolve.go 's|env.types\[r.Name\] \|\| env.spec.classScope \|\| env.spec.packageScope|env.types[r.Name]|' ./sourcefacts -run TestAnInheritedMethodResolvesToItsBaseInJavaAndJavaScript
mutant "a JavaScript module's members are read as its path" sourcefacts/scopes.go 's|^\t\tif k := s.inTree(f, m); k != "" {$|\t\tif k := s.inTree(f, m); false \&\& k != "" {|' ./sourcefacts -run TestAnInheritedMethodResolvesToItsBaseInJavaAndJavaScript
mutant "a base imported by name is not followed" sourcefacts/tsresolve.go 's|r.Via, r.Module, r.Type = ViaImport, ib.module, ib.member|r.Via = ViaImport|' ./sourcefacts -run TestAPythonMethodCallResolvesToTheBaseClassThatDefinesIt
mutant "a base of the same file is not followed" sourcefacts/tsresolve.go 's|r.Via, r.Type = ViaScope, r.Name|_ = r|' ./sourcefacts -run TestAPythonMethodCallResolvesToTheBaseClassThatDefinesIt
mutant "a qualified base keeps its qualifier as the type" sourcefacts/tsresolve.go 's|strings.Join(append(names, r.Name), ".")|r.Name|' ./sourcefacts -run TestAPythonMethodCallResolvesToTheBaseClassThatDefinesIt
mutant "the outermost class takes a nested class's base" sourcefacts/tsresolve.go 's|s.Range.EndByte-s.Range.StartByte < syms\[best\]|s.Range.EndByte-s.Range.StartByte > syms[best]|' ./sourcefacts -run 'TestAPythonMethodCallResolvesToTheBaseClassThatDefinesIt|TestACallOnSuperResolvesToTheBaseNotTheOverride'
mutant "a class that starts after a base holds it" sourcefacts/tsresolve.go 's|if s.Kind != KindClass \|\| pos < s.Range.StartByte \|\| pos >= s.Range.EndByte {|if s.Kind != KindClass \|\| pos >= s.Range.EndByte {|' ./sourcefacts -run 'TestAPythonMethodCallResolvesToTheBaseClassThatDefinesIt|TestACallOnSuperResolvesToTheBaseNotTheOverride'
mutant "a class base's module is matched as a Go import" sourcefacts/scopes.go 's|^\t\tif f.Language != LangGo {$|\t\tif false {|' ./sourcefacts -run TestAPythonMethodCallResolvesToTheBaseClassThatDefinesIt
mutant "an update does not resolve again the subclasses of an edited base" sourcefacts/scopetable.go 's|fs.Fields = append(fs.Fields, classBases(f)...)|_ = classBases|' ./project -run 'TestAnUpdateResolvesAgainExactlyTheFilesAnEditCanChange/a_Python'
mutant "a call on super resolves to the base" sourcefacts/tsresolve.go 's|if spec.expr == nil \&\& env.superCall(x, r, op) {|if false \&\& env.superCall(x, r, op) {|' ./sourcefacts -run 'TestACallOnSuperResolvesToTheBaseNotTheOverride'
mutant "a class with several bases leaves super to its name" sourcefacts/tsresolve.go 's|if len(bases) != 1 {|if len(bases) == 0 {|' ./sourcefacts -run 'TestACallOnSuperResolvesToTheBaseNotTheOverride'
mutant "a class's bases are kept for super" sourcefacts/tsresolve.go 's|env.bases\[cls\] = append(env.bases\[cls\], \*r)|_ = cls|' ./sourcefacts -run 'TestACallOnSuperResolvesToTheBaseNotTheOverride'
mutant "a same-scope base makes super a receiver" sourcefacts/tsresolve.go 's|r.Via, r.Type = ViaReceiver, b.Type|r.Via, r.Type = ViaScope, b.Type|' ./sourcefacts -run 'TestACallOnSuperResolvesToTheBaseNotTheOverride'
mutant "a nested class's bases are its own" sourcefacts/tsresolve.go 's|s.Range.EndByte-s.Range.StartByte < x.ff.Symbols\[best\]|s.Range.EndByte-s.Range.StartByte > x.ff.Symbols[best]|' ./sourcefacts -run 'TestACallOnSuperResolvesToTheBaseNotTheOverride'
mutant "an imported base makes super the module's" sourcefacts/tsresolve.go 's|r.Via, r.Module, r.Type = ViaImport, b.Module, b.Type|r.Via, r.Type = ViaReceiver, b.Type|' ./sourcefacts -run 'TestACallOnSuperResolvesToTheBaseNotTheOverride'
mutant "a nested class's method finds its class by Container.Receiver" sourcefacts/tsresolve.go 's|if cls != "" \&\& m.Container != "" {|if false {|' ./sourcefacts -run 'TestACallOnSuperResolvesToTheBaseNotTheOverride'
mutant "a generic java base is not marked" sourcefacts/queries/java-extra.scm 's|^((superclass (generic_type (type_identifier) @name)) @reference.class$|((superclass (generic_type (type_identifier) @nameX)) @reference.class|' ./sourcefacts -run TestAnInheritedMethodResolvesToItsBaseInJavaAndJavaScript
mutant "a package-qualified java base is not resolved" sourcefacts/tsresolve.go 's|^\t\tif env.spec.qualifiedTypes {$|\t\tif false \&\& env.spec.qualifiedTypes {|' ./sourcefacts -run TestAnInheritedMethodResolvesToItsBaseInJavaAndJavaScript
