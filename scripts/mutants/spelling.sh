# Mutants for a misspelled name (issue 10: a fuzzy retarget never answers
# for an unrelated name): exact's near names (retrieval.Request.Near,
# embedded searchNear) and the rules that plan and judge them (see
# scripts/mutants.sh).
N='./retrieval/embedded -run TestExactNearFindsOnlyTheNearestNamesWithinTheEditBound'
C='./cmd/rlm -run TestAMisspelledNameIsAnsweredForTheNearestNameAndSaysSo'
E='./rules -run TestRules/retrieval/evidence_test'
S='./rules -run TestRules/retrieval/strategy_test'

mutant "no near names" retrieval/embedded/search.go 's|	return searchNear(ctx, tx, req, where, fargs, order)|	return nil, nil|' $N
mutant "case breaks no tie" retrieval/embedded/search.go 's|		dc := edlib.OSADamerauLevenshteinDistance(req.Name, name)|		dc := 0|' $N
mutant "an insertion is out of reach" retrieval/embedded/search.go 's/		if m := utf8.RuneCountInString(name); m < n-bound || m > n+bound {/		if m := utf8.RuneCountInString(name); m != n {/' $N
mutant "the filter does not choose the names" retrieval/embedded/search.go 's|FROM docs d WHERE 1"+where, fargs...)|FROM docs d")|' $N
mutant "a short name allows no edit" retrieval/retrieval.go 's|	case n < 8:\n		return 1|XX|; /	case n < 8:/{n;s|		return 1|		return 0|}' $N
mutant "a near name is no fallback" rules/retrieval/strategy.pl 's|    \\+ tried(H, exact, spelling(near)),|    fail,|' $C
mutant "equally near names resolve to the first" rules/retrieval/evidence.pl '/^verdict(_, _, result(step(exact, A, check), C, \[N|Ns\]), resolved(N),/,/!\./ s|    one_name(Ns, N), !\.|    true, !.|' $E
mutant "several near names answer for the first" rules/retrieval/evidence.pl '/^near_event(T, N, Ns, Rule, resolved(T, N, Rule)) :-/,/!\./ s|    one_name(Ns, N), !\.|    true, !.|' $E
mutant "a relationship target is retargeted by BM25" rules/retrieval/strategy.pl 's|^    Class \\== relationship,$|    true,|' $S
mutant "a qualified relationship target is spelled near" rules/retrieval/strategy.pl '/fb_near_spelling, \[gap/,/fallback_role/ s|    \\+ ( Class == relationship, qualified_name(T) ),|    true,|' ./rules -run TestRules/retrieval/callers_test

