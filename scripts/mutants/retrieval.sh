# Mutants for retrieval/ (see scripts/mutants.sh).
mutant "RRF sums 1/(k+rank)" retrieval/fusion.go 's|score += 1 / float64(k+r)|score += 1 / float64(k+r+1)|' ./retrieval -run TestFuseRRF

# Run reuses the features PlanFor computed.
mutant "Run reuses its plan's features" planner/search.go 's#feats, ok := p.feats.get(plan, b)#feats, ok := engine.Term(nil), false#' ./planner -run 'TestRunReusesTheFeaturesItsPlanWasMadeWith'
mutant "a changed query is looked up afresh" planner/featmemo.go 's#if !ok || e.query != plan.Query || #if !ok || #' ./planner -run 'TestRunReusesTheFeaturesItsPlanWasMadeWith'
mutant "another backend is looked up afresh" planner/featmemo.go 's#return ta == reflect.TypeOf(b) \&\& ta.Comparable() \&\& a == b#return ta != nil#' ./planner -run 'TestRunReusesTheFeaturesItsPlanWasMadeWith'
mutant "PlanTabled's plans carry their features" planner/table.go 's#\tp.feats.put(cp, b, term)#\t_ = term#' ./planner -run 'TestRunReusesTheFeaturesItsPlanWasMadeWith'
mutant "a retarget without a relation is the definition" rules/retrieval/strategy.pl 's#feature(relation(R), F), R \\== none, !.#feature(relation(R), F), !.#' ./rules -run 'TestRules'
