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
