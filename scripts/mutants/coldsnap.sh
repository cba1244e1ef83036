# Mutants for issue 13's cold snapshot (docs/BENCHMARKS.md, "### Cold
# snapshot: the publish"; see scripts/mutants.sh). The publish that built
# the fact tables' secondary indexes after the rows is gone with those
# tables (schema 7: one facts row per file, scripts/mutants/kbfacts.sh).
# The facts held until the publish (packedFacts) come back field for field.
P='./sourcefacts/store -run TestPackedFacts'
mutant "a definition's doc is not packed (nor unpacked)" sourcefacts/store/packed.go 's|^\t\tw.str(y.Doc)$||; s|^\t\t\ty.Doc = u.str()$||' $P
mutant "a reference's enclosing definition is packed unsigned" sourcefacts/store/packed.go 's|\t\tw.int(int64(f.Enclosing))|\t\tw.uint(uint64(f.Enclosing))|' $P
mutant "a file's test flag is not unpacked" sourcefacts/store/packed.go 's|\tff.Test = u.bool()|\tff.Test = u.bool() \&\& false|' $P
mutant "a string longer than what is left is read" sourcefacts/store/packed.go 's|	if n > uint64(len(u.b)-u.i) {|	if false {|' $P
mutant "bytes left over are not an error" sourcefacts/store/packed.go 's/	if u.bad || u.i != len(u.b) {/	if u.bad {/' $P
mutant "a range's end line is not packed" sourcefacts/store/packed.go 's|r.StartLine, r.EndLine, r.StartCol|r.StartLine, r.StartLine, r.StartCol|' $P
