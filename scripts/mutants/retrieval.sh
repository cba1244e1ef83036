# Mutants for retrieval/ (see scripts/mutants.sh).
mutant "RRF sums 1/(k+rank)" retrieval/fusion.go 's|score += 1 / float64(k+r)|score += 1 / float64(k+r+1)|' ./retrieval -run TestFuseRRF

# Run reuses the features PlanFor computed.
mutant "Run reuses its plan's features" planner/search.go 's#feats, ok := p.feats.get(plan, b)#feats, ok := engine.Term(nil), false#' ./planner -run 'TestRunReusesTheFeaturesItsPlanWasMadeWith'
mutant "a changed query is looked up afresh" planner/featmemo.go 's#if !ok || e.query != plan.Query || #if !ok || #' ./planner -run 'TestRunReusesTheFeaturesItsPlanWasMadeWith'
mutant "another backend is looked up afresh" planner/featmemo.go 's#return ta == reflect.TypeOf(b) \&\& ta.Comparable() \&\& a == b#return ta != nil#' ./planner -run 'TestRunReusesTheFeaturesItsPlanWasMadeWith'
mutant "PlanTabled's plans carry their features" planner/table.go 's#\tp.feats.put(cp, b, term)#\t_ = term#' ./planner -run 'TestRunReusesTheFeaturesItsPlanWasMadeWith'
mutant "a retarget without a relation is the definition" rules/retrieval/strategy.pl 's#feature(relation(R), F), R \\== none, !.#feature(relation(R), F), !.#' ./rules -run 'TestRules'

# The embedded backend's statement cache (retrieval/embedded/stmts.go).
mutant "statements are prepared outside the search's transaction" retrieval/embedded/stmts.go 's#^\ttx.Rollback()$#\tb.stmts.prepareWanted(ctx, b.db); tx.Rollback()#' ./retrieval/embedded -run 'TestSearchesOnOneConnectionNeverWaitForAStatement'
mutant "a repeated search runs its prepared statement" retrieval/embedded/stmts.go 's#if st := t.stmts.get(q); st != nil {#if st := t.stmts.get(q); false \&\& st != nil {#' ./retrieval/embedded -run 'TestRepeatedSearchesRunPreparedStatementsAndAnswerTheSame'
mutant "the statement cache is bounded" retrieval/embedded/stmts.go 's#len(c.stmts)+len(c.wanted) < maxCachedStmts#true#' ./retrieval/embedded -run 'TestTheStatementCacheIsBounded'
mutant "Close closes the prepared statements" retrieval/embedded/embedded.go 's#^\tb.stmts.close()#\t_ = 0#' ./retrieval/embedded -run 'TestClosingTheBackendClosesItsStatementsAndLaterSearchesFail'
mutant "a hit carries no refs (embedded callers)" retrieval/embedded/callers.go 's#readDocs(ctx, tx, false, #readDocs(ctx, tx, true, #' ./retrieval/embedded -run 'TestEmbeddedBackendKeepsTheRetrievalContract'
mutant "Fetch returns the refs" retrieval/embedded/docread.go 's#docs, err := readDocs(ctx, tx, true, q, args...)#docs, err := readDocs(ctx, tx, false, q, args...)#' ./retrieval/embedded -run 'TestEmbeddedBackendKeepsTheRetrievalContract|TestUpsertFetchDeleteRoundTrip'
mutant "an in-memory backend from the schema image gets its own identity" retrieval/embedded/memimage.go 's#_, err = conn.ExecContext(ctx, "UPDATE vector_store SET uid = lower(hex(randomblob(8))) WHERE id = 0")#err = nil#' ./retrieval/embedded -run 'TestInMemoryBackendsStartFromTheSchemaImageWithTheirOwnIdentity'

# LexicalRanking (retrieval/embedded/ranking.go): Search's ranking without the documents.
mutant "LexicalRanking weighs the columns as Search does" retrieval/embedded/ranking.go 's#out, err = b.rank(ctx, tx, req)#out, err = b.rank(ctx, tx, retrieval.Request{Text: req.Text, Limit: req.Limit, Filter: req.Filter})#' ./retrieval/embedded -run 'TestLexicalRankingIsSearchsRankingWithoutTheDocuments'
mutant "LexicalRanking keeps Search's order" retrieval/embedded/ranking.go 's#out\[i\] = Ranked{ID: r.id, Score: r.score}#out[len(rows)-1-i] = Ranked{ID: r.id, Score: r.score}#' ./retrieval/embedded -run 'TestLexicalRankingIsSearchsRankingWithoutTheDocuments'
mutant "LexicalRanking refuses another strategy" retrieval/embedded/ranking.go 's#if req.Strategy != retrieval.Lexical {#if false {#' ./retrieval/embedded -run 'TestLexicalRankingIsSearchsRankingWithoutTheDocuments'
mutant "LexicalRanking runs a prepared statement" retrieval/embedded/ranking.go 's#out, err = b.rank(ctx, tx, req)#out, err = b.rank(ctx, readTx{tx.Tx, nil}, req)#' ./retrieval/embedded -run 'TestRepeatedLexicalRankingsRunAPreparedStatement'
# rankInText (retrieval/embedded/ranking.go): an unfiltered ranking scored and cut in the text index alone.
mutant "an unfiltered ranking is settled in the text index" retrieval/embedded/ranking.go 's#if !filterActive(req.Filter) {#if false \&\& !filterActive(req.Filter) {#' ./retrieval/embedded -run 'TestRankingInTheTextIndexIsTheJoinedRanking'
mutant "the text index ranking weighs the columns by the emphasis" retrieval/embedded/ranking.go 's#score := bm25Score(req.Emphasis)#score := bm25Score("")#' ./retrieval/embedded -run 'TestRankingInTheTextIndexIsTheJoinedRanking'
mutant "a tie reaching past the pool is read whole" retrieval/embedded/ranking.go 's#if s > lowest {#if s >= lowest {#' ./retrieval/embedded -run 'TestRankingInTheTextIndexIsTheJoinedRanking'
mutant "the tied rows are cut by id" retrieval/embedded/ranking.go 's# = ? ORDER BY d.id LIMIT ?"# = ? ORDER BY d.id DESC LIMIT ?"#' ./retrieval/embedded -run 'TestRankingInTheTextIndexIsTheJoinedRanking'
mutant "the rows above a tie come from the pool" retrieval/embedded/ranking.go 's#for rows\[above\].score > s {#for false \&\& rows[above].score > s {#' ./retrieval/embedded -run 'TestRankingInTheTextIndexIsTheJoinedRanking'
mutant "ties in the pool break by id" retrieval/embedded/ranking.go 's#return rows\[i\].id < rows\[j\].id#return rows[i].id > rows[j].id#' ./retrieval/embedded -run 'TestRankingInTheTextIndexIsTheJoinedRanking'
mutant "a pool holding every match settles the ranking" retrieval/embedded/ranking.go 's#if n < pool {#if false {#' ./retrieval/embedded -run 'TestRankingInTheTextIndexIsTheJoinedRanking'
mutant "Search's lexical hits keep the ranking's order" retrieval/embedded/vector.go 's#hits\[i\] = retrieval.Hit{Document: d, Score: score, ScoreKind: kind}#hits[n-1-i] = retrieval.Hit{Document: d, Score: score, ScoreKind: kind}#' ./retrieval/embedded -run 'TestRankingInTheTextIndexIsTheJoinedRanking'
# Hybrid search's halves overlap (retrieval/embedded/vector.go): the vector scan runs while the lexical half ranks.
mutant "the vector scan runs in a goroutine of its own" retrieval/embedded/vector.go 's#^\tgo func() {$#\tfunc() {#' ./retrieval/embedded -run 'TestHybridScansTheVectorsWhileTheLexicalHalfRanks'
mutant "hybrid ranks its lexical half before waiting for the scan" retrieval/embedded/vector.go 's#finish, err := b.startNearest(ctx, tx, q, depth, req.Filter)#finish0, err := b.startNearest(ctx, tx, q, depth, req.Filter); best0, err0 := finish0(); finish := func() ([]ranked, error) { return best0, err0 }#' ./retrieval/embedded -run 'TestHybridScansTheVectorsWhileTheLexicalHalfRanks'
mutant "OptimizeText keeps every ranking" retrieval/embedded/ranking.go "s#VALUES('optimize')#VALUES('delete-all')#" ./retrieval/embedded -run 'TestOptimizeTextKeepsEveryRanking'
mutant "PercentOfBest rounds" retrieval/percent.go 's#math.Round(100\*score/best)#math.Floor(100*score/best)#' ./retrieval -run 'TestTheBestScoreIsOneHundredPercentOfItself'
mutant "PercentOfBest clamps" retrieval/percent.go 's#return max(0, min(100, int(math.Round(100\*score/best))))#return int(math.Round(100*score/best))#' ./retrieval -run 'TestTheBestScoreIsOneHundredPercentOfItself'
mutant "hybrid reads the documents of the fused hits" retrieval/embedded/vector.go 's#^\t\tfused\[i\].Document = d$#\t\t_ = d#' ./retrieval/embedded -run 'TestHybrid$'
mutant "hybrid fuses in the lexical list" retrieval/embedded/vector.go 's#lex = append(lex, retrieval.Hit{Document: retrieval.Document{ID: r.id}})#_ = r#' ./retrieval/embedded -run 'TestHybrid$'

# Index images (retrieval/embedded/memimage.go).
mutant "a Backend opened WithImage starts from the image" retrieval/embedded/embedded.go 's#case memory \&\& o.image != nil:#case false \&\& o.image != nil:#' ./retrieval/embedded -run TestImageOpensAnIndependentCopyOfTheIndex
