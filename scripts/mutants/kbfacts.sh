# Mutants for issue 13's compact knowledge base (docs/BENCHMARKS.md,
# "### Compact storage: the knowledge base's facts one row per file";
# see scripts/mutants.sh): schema 7 keeps one facts row per file, its
# packed facts deflated where shorter, with counts Stats reads from their
# covering index; a schema 6 file is migrated in place and vacuumed; the
# facts read back are the extracted ones.
R='./sourcefacts/store -run TestFactsAreOneRowPerFileAndCountedFromTheirIndex'
mutant "a facts row counts no references" sourcefacts/store/writefile.go 's|len(ff.Symbols), len(ff.References), len(ff.Imports), storeFacts(c.facts))|len(ff.Symbols), 0, len(ff.Imports), storeFacts(c.facts))|' $R
mutant "the counts read the rows, not their covering index" sourcefacts/store/schema.go 's|`CREATE INDEX facts_counts ON facts(symbols, refs, imports)`|`SELECT 1`|' $R
mutant "an edited file's old facts row is kept" sourcefacts/store/writefile.go 's|DELETE FROM facts WHERE file_id = ? RETURNING|DELETE FROM facts WHERE file_id = -? RETURNING|' $R
mutant "an edit does not take the old row's counts off" sourcefacts/store/writefile.go 's|\t\tps.delta.refs -= was.refs|\t\tps.delta.refs -= 0|' ./sourcefacts/store -run TestStatsCountsTheFactsOfEveryCommit

S='./sourcefacts/store -run TestStoredFactsReadBackAsWritten'
mutant "stored facts are never deflated" sourcefacts/store/storedfacts.go 's|\tif len(p) >= minDeflateFacts {|\tif false {|' $S
mutant "deflated facts are kept when longer" sourcefacts/store/storedfacts.go 's|cerr == nil \&\& buf.Len() < 1+len(p) {|cerr == nil {|' $S
mutant "unknown flags read as plain facts" sourcefacts/store/storedfacts.go 's|^\tcase 0:$|\tcase 0, 1 << 3:|' $S
mutant "an empty value reads as no facts" sourcefacts/store/storedfacts.go 's|\t\treturn nil, fmt.Errorf("%w: empty", errStored)|\t\treturn nil, nil|' $S

M='./sourcefacts/store -run TestSchema7MovesEveryFactRowIntoItsFilesRow'
mutant "the migration leaves the references behind" sourcefacts/store/schema.go 's|if ff.References, err = oldFacts(|if _, err = oldFacts(|' $M
mutant "rows of two generations migrate as one" sourcefacts/store/schema.go 's|^\t\t\t\tgen = -1$|\t\t\t\tgen = g|' $M
mutant "the migration does not vacuum" sourcefacts/store/schema.go 's|db.ExecContext(ctx, "VACUUM"); err == nil {|db.ExecContext(ctx, "SELECT 1"); err == nil {|' $M
mutant "the old tables are kept" sourcefacts/store/schema.go 's|`DROP TABLE symbols`, `DROP TABLE refs`, `DROP TABLE imports`|`SELECT 1`|' $M
mutant "Facts reads a row of another file generation" sourcefacts/store/snapshot.go 's|^\t\tcase gen != f.FileGeneration:$|\t\tcase false:|' $M
mutant "a caller is any definition of the file" sourcefacts/store/snapshot.go 's|\t\t\t\ty := ff.Symbols\[r.Enclosing\]|\t\t\t\ty := ff.Symbols[0]|' $M
mutant "Importers gives every import of an importing file" sourcefacts/store/snapshot.go 's|if file != "" \|\| im.Path == importPath {|if file != "" \|\| im.Path != "" {|' $M
mutant "Symbols ignores the name" sourcefacts/store/snapshot.go 's|if y.Name == base \&\& (qual|if y.Name != base+"~" \&\& (qual|' $M

X='./sourcefacts/store -run TestFactsReadFromTheDatabaseAreTheExtractedFacts'
mutant "a reference's module is not stored" sourcefacts/store/packed.go 's|^\t\tw.str(f.Module)$|\t\tw.str("")|' $X
mutant "a reference's module is not read back" sourcefacts/store/packed.go 's|r.Via, r.Module, r.Type, r.Path = in(r.Via), in(r.Module), in(r.Type), in(r.Path)|r.Via, r.Module, r.Type, r.Path = in(r.Via), "", in(r.Type), in(r.Path)|' $X
mutant "a file whose facts hold the name is skipped" sourcefacts/store/snapshot.go 's|\t\t\tif !bytes.Contains(p, want) {|\t\t\tif bytes.Contains(p, want) {|' $M
mutant "a file whose facts hold the import path is skipped" sourcefacts/store/snapshot.go 's|\t\t\tif file == "" \&\& !bytes.Contains(p, want) {|\t\t\tif file == "" \&\& bytes.Contains(p, want) {|' $M

# A facts row whose data was packed for another file is corrupt, not the
# other file's facts (breaker5).
R='./sourcefacts/store -run TestAFactsRowHoldingAnotherFilesFactsIsCorrupt'
mutant "a facts row packed for another path is not read as the file's" sourcefacts/store/packed.go 's|if got := u.Provenance.Path; path != "" \&\& got != "" \&\& got != path {|if got := u.Provenance.Path; false \&\& got != path {|' $R
mutant "Facts checks whose facts a row it reads holds" sourcefacts/store/snapshot.go 's|^\t\t\twant = path$|\t\t\twant = ""|' $R
mutant "a Symbols scan checks whose facts a row holds" sourcefacts/store/snapshot.go '0,/p.unpackInto(f.Path, \&ff)/s|p.unpackInto(f.Path, \&ff)|p.unpackInto(func() string { u, _ := p.unpack(); return u.Provenance.Path }(), \&ff)|' $R
mutant "a row the schema 6 upgrade writes says whose facts it holds" sourcefacts/store/schema.go 's|`SELECT path FROM files WHERE id = ?`, id).Scan(\&ff.Provenance.Path)|`SELECT ? + 0`, 0).Scan(new(int))|' ./sourcefacts/store -run TestSchema7MovesEveryFactRowIntoItsFilesRow
