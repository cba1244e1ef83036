# Mutants for retrieval/ (see scripts/mutants.sh).
mutant "RRF sums 1/(k+rank)" retrieval/fusion.go 's|score += 1 / float64(k+r)|score += 1 / float64(k+r+1)|' ./retrieval -run TestFuseRRF
