# Mutants for tools/ (see scripts/mutants.sh).
mutant "hidden tool refused (not_visible)" tools/executor.go 's|if !slices.Contains(visible, call.Name) {|if false \&\& !slices.Contains(visible, call.Name) {|' ./tools -run TestHiddenBindingIsRetainedAndRunsWhenVisibleAgain
mutant "name syntax checked before lookup" tools/executor.go 's|if !ValidName(call.Name) {|if false {|' ./tools -run TestChecksRunInTheDocumentedOrder
mutant "name length bounded" tools/tool.go 's|len(name) > MaxNameBytes|len(name) > MaxNameBytes+1|' ./tools -run TestRegisterRefusesMalformedBindings
mutant "capability needed" tools/policy.go 's|if !slices.Contains(p.Capabilities, c) {|if false {|' ./tools -run TestPolicyGrantsCapabilitiesAndSideEffects
mutant "side effect allowed" tools/policy.go 's|if !slices.Contains(p.sideEffects(), t.SideEffect) {|if false {|' ./tools -run TestPolicyGrantsCapabilitiesAndSideEffects
mutant "default policy is read-only" tools/policy.go 's|return \[\]SideEffect{SideEffectNone, SideEffectRead}|return []SideEffect{SideEffectNone, SideEffectRead, SideEffectWrite}|' ./tools -run TestPolicyGrantsCapabilitiesAndSideEffects
mutant "argument size bounded" tools/executor.go 's|len(args) > max {|len(args) > max+1 {|' ./tools -run TestMaliciousModelOutputsAreRefusedAndNothingRuns
mutant "arguments are UTF-8" tools/jsoncheck.go 's|if !utf8.ValidString(s) {|if false \&\& !utf8.ValidString(s) {|' ./tools -run TestMaliciousModelOutputsAreRefusedAndNothingRuns
mutant "arguments are an object" tools/jsoncheck.go 's|if tok != json.Delim(.{.) {|if false {|' ./tools -run TestMaliciousModelOutputsAreRefusedAndNothingRuns
mutant "duplicate keys refused" tools/jsoncheck.go 's|if top.keys\[f\] {|if false {|' ./tools -run TestMaliciousModelOutputsAreRefusedAndNothingRuns
mutant "duplicate keys compared up to case" tools/jsoncheck.go 's|return min$|return r|' ./tools -run TestMaliciousModelOutputsAreRefusedAndNothingRuns
mutant "trailing data refused" tools/jsoncheck.go 's|if started \&\& len(stack) == 0 {|if false {|' ./tools -run TestCheckJSONAcceptsOnlyOneUnambiguousObject
mutant "nesting depth bounded" tools/jsoncheck.go 's|len(stack) >= maxDepth|len(stack) > maxDepth|' ./tools -run 'TestMaliciousModelOutputsAreRefusedAndNothingRuns|TestCheckJSONBoundsDepth'
mutant "nesting limit is not too tight" tools/jsoncheck.go 's|len(stack) >= maxDepth|len(stack) >= maxDepth-1|' ./tools -run TestNestingUpToTheLimitIsAccepted
mutant "arguments validated against the schema" tools/executor.go 's|if err := ent.schema.Validate(doc); err != nil {|if err := ent.schema.Validate(doc); false \&\& err != nil {|' ./tools -run 'TestMaliciousModelOutputsAreRefusedAndNothingRuns|FuzzExecuteNeverRunsRefusedCalls'
mutant "failing schema location reported" tools/executor.go 's|cerr.Path = path|cerr.Path = ""|' ./tools -run TestMaliciousModelOutputsAreRefusedAndNothingRuns
mutant "refusals quote only an excerpt of the name" tools/executor.go 's|textclip.Clean(s, excerpt)|s|' ./tools -run TestMaliciousModelOutputsAreRefusedAndNothingRuns
mutant "refusals quote only an excerpt of the arguments" tools/executor.go 's|textclip.Clean(msg, 160)|msg|' ./tools -run TestMaliciousModelOutputsAreRefusedAndNothingRuns
mutant "outcome name clipped" tools/executor.go 's|name := textclip.Clean(call.Name, MaxNameBytes)|name := call.Name|' ./tools -run TestMaliciousModelOutputsAreRefusedAndNothingRuns
mutant "cancelled context runs nothing" tools/executor.go 's|if err := ctx.Err(); err != nil {|if err := ctx.Err(); false \&\& err != nil {|' ./tools -run TestCancelledContextRunsNothing
mutant "per-call timeout applied" tools/executor.go 's|context.WithTimeout(ctx, timeout)|context.WithTimeout(ctx, 100*timeout)|' ./tools -run TestHandlerFailuresBecomeStructuredErrors
mutant "deadline is a timeout, not a cancellation" tools/executor.go '0,/return KindTimeout/s|return KindTimeout|return KindCanceled|' ./tools -run TestHandlerFailuresBecomeStructuredErrors
mutant "a handler's context error is a timeout" tools/executor.go 's|if cerr := ctx.Err(); cerr != nil \&\& errors.Is(err, cerr) {|if cerr := ctx.Err(); false \&\& cerr != nil \&\& errors.Is(err, cerr) {|' ./tools -run TestAHandlerStoppedByItsContextReportsTheContext
mutant "handler panic recovered" tools/executor.go 's|if p := recover(); p != nil {|if p := any(nil); p != nil {|' ./tools -run TestHandlerFailuresBecomeStructuredErrors
mutant "handler error text hidden from the model" tools/executor.go 's|msg := "the tool failed"|msg := "the tool failed: " + err.Error()|' ./tools -run TestHandlerFailuresBecomeStructuredErrors
mutant "model error shown to the model" tools/executor.go 's|msg = "the tool failed: " + textclip.Clean(me.Message, 400)|_ = me|' ./tools -run TestHandlerFailuresBecomeStructuredErrors
mutant "result must marshal" tools/executor.go 's|b, err := json.Marshal(v)|b, _ := json.Marshal(v); err = nil|' ./tools -run TestHandlerFailuresBecomeStructuredErrors
mutant "result size bounded" tools/executor.go 's|len(b) > max {|len(b) > max+2 {|' ./tools -run TestHandlerFailuresBecomeStructuredErrors
mutant "duplicate registration refused" tools/registry.go 's|if _, dup := r.tools\[t.Name\]; dup {|if false {|' ./tools -run TestRegisterRefusesMalformedBindings
mutant "nil handler refused" tools/registry.go 's|if t.Handler == nil {|if false {|' ./tools -run TestRegisterRefusesMalformedBindings
mutant "unknown side effect refused" tools/registry.go 's|if !t.SideEffect.Valid() {|if false {|' ./tools -run TestRegisterRefusesMalformedBindings
mutant "schema checked against the meta-schema" internal/schemacheck/schemacheck.go 's|if err := meta.Validate(doc); err != nil {|if err := meta.Validate(doc); false \&\& err != nil {|' ./tools -run TestRegisterRefusesMalformedBindings
mutant "schema root is an object" internal/schemacheck/schemacheck.go 's|if s.Type != "object" {|if false {|' ./tools -run TestRegisterRefusesMalformedBindings
mutant "registry keeps its own copy" tools/registry.go 's|entry{tool: t.clone(), schema: rs, raw: raw}|entry{tool: t, schema: rs, raw: raw}|' ./tools -run TestRegistryListsToolsByNameAndKeepsItsOwnCopies
mutant "lookup hands out a copy" tools/registry.go 's|return e.tool.clone(), ok|return e.tool, ok|' ./tools -run TestRegistryListsToolsByNameAndKeepsItsOwnCopies
mutant "tools sorted by name" tools/registry.go 's|return strings.Compare(a.Name, b.Name)|return -strings.Compare(a.Name, b.Name)|' ./tools -run TestRegistryListsToolsByNameAndKeepsItsOwnCopies
mutant "registry locked for writers" tools/registry.go '/^\tr.mu.Lock()$/,+1d' ./tools -race -run TestExecuteIsSafeForConcurrentUse
mutant "resolve refuses absolute paths" tools/path.go 's|if filepath.IsAbs(p) \|\| filepath.VolumeName(p) != "" \|\| strings.HasPrefix(p, "/") \|\| strings.HasPrefix(p, `\\`) {|if false {|' ./tools -run TestResolveInsideKeepsPathsUnderTheRoot
mutant "resolve refuses .. escapes" tools/path.go 's|if !filepath.IsLocal(p) {|if false {|' ./tools -run TestResolveInsideKeepsPathsUnderTheRoot
mutant "resolve refuses links out of the root" tools/path.go 's|if err != nil \|\| !filepath.IsLocal(rel) {|if err != nil \|\| false \&\& !filepath.IsLocal(rel) {|' ./tools -run TestResolveInsideKeepsPathsUnderTheRoot
mutant "resolve refuses dangling links" tools/path.go 's|if _, lerr := os.Lstat(path); lerr == nil {|if _, lerr := os.Lstat(path); false \&\& lerr == nil {|' ./tools -run TestResolveInsideKeepsPathsUnderTheRoot
mutant "tools imports only internal" architecture_test.go 's|^\t"tools": *{"internal/\*"},|\t"tools": {},|' . -run TestPackagesImportOnlyDownward
mutant "keys differing only in case are refused" tools/executor.go 's|	if err := checkShadowedKeys(doc, ent.raw, ""); err != nil {|	if err := checkShadowedKeys(doc, ent.raw, ""); err != nil \&\& false {|' ./tools -run TestKeysDifferingOnlyInCase
mutant "a case-shadowed key's refusal says where it is" tools/jsoncheck.go 's|where = "at the top level"|where = "at "|' ./tools -run TestKeysDifferingOnlyInCaseFromADeclaredPropertyAreRefused
