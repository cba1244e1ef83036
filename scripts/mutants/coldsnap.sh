# Mutants for issue 13's cold snapshot (docs/BENCHMARKS.md, "### Cold
# snapshot: the publish"; see scripts/mutants.sh): a cold build's publish
# writes the fact rows first and builds the secondary indexes after them,
# ending with the schema and rows a row-by-row publish has.
B='./sourcefacts/store -run TestAColdBulkPublishEndsWithTheSchemaAndFactsOfARowByRowOne'

mutant "the dropped indexes are not built again" sourcefacts/store/validate.go 's|if err := createIndexes(ctx, tx, create); err != nil {|if err := createIndexes(ctx, tx, nil); err != nil {|' $B
mutant "only the first dropped index is built again" sourcefacts/store/writefile.go 's|	for _, stmt := range create {|	for _, stmt := range create[:min(1, len(create))] {|' $B
mutant "the indexes are built again from other statements" sourcefacts/store/writefile.go 's|		names, create = append(names, name), append(create, stmt)|		names, create = append(names, name), append(create, strings.Replace(stmt, "(name, kind)", "(name)", 1))|' $B
mutant "filled fact tables get their indexes rebuilt" sourcefacts/store/writefile.go 's|	if any {|	if false \&\& any {|' $B
mutant "a publish of few files rebuilds the indexes" sourcefacts/store/writefile.go 's|	if n < min {|	if n < 0 {|' $B

# The facts held until the publish (packedFacts) come back field for field.
P='./sourcefacts/store -run TestPackedFacts'
mutant "a definition's doc is not packed (nor unpacked)" sourcefacts/store/packed.go 's|^\t\tw.str(y.Doc)$||; s|^\t\t\ty.Doc = u.str()$||' $P
mutant "a reference's enclosing definition is packed unsigned" sourcefacts/store/packed.go 's|\t\tw.int(int64(f.Enclosing))|\t\tw.uint(uint64(f.Enclosing))|' $P
mutant "a file's test flag is not unpacked" sourcefacts/store/packed.go 's|\tff.Test = u.bool()|\tff.Test = u.bool() \&\& false|' $P
mutant "a string longer than what is left is read" sourcefacts/store/packed.go 's|	if n > uint64(len(u.b)-u.i) {|	if false {|' $P
mutant "bytes left over are not an error" sourcefacts/store/packed.go 's/	if u.bad || u.i != len(u.b) {/	if u.bad {/' $P
mutant "a range's end line is not packed" sourcefacts/store/packed.go 's|r.StartLine, r.EndLine, r.StartCol|r.StartLine, r.StartLine, r.StartCol|' $P
