# Mutants for compound names split into the tree's words (internal/subwords,
# project/namewords.go, Document.NameWords in retrieval/embedded; see
# scripts/mutants.sh).
mutant "Split splits" internal/subwords/subwords.go 's#^\treturn out$#\treturn nil#' ./internal/subwords -run 'TestSplitWritesACompoundAsTheFewestVocabularyWords'
mutant "the compound is no word of its own split" internal/subwords/subwords.go 's#if (i == 0 \&\& j == n) || #if #' ./internal/subwords -run 'TestSplitWritesACompoundAsTheFewestVocabularyWords'
mutant "a tie goes to the longest first word" internal/subwords/subwords.go 's#c < pieces\[i\]#c <= pieces[i]#' ./internal/subwords -run 'TestSplitWritesACompoundAsTheFewestVocabularyWords'
mutant "names over MaxCompoundBytes are not split" internal/subwords/subwords.go 's#n > MaxCompoundBytes || ##' ./internal/subwords -run 'TestSplitWritesACompoundAsTheFewestVocabularyWords'
mutant "a vocabulary holds only words" internal/subwords/subwords.go 's#return len(w) >= MinWordBytes \&\& #return #' ./internal/subwords -run 'TestAVocabularyHoldsOnlyWords'
mutant "the words of a compound word split again" project/namewords.go 's#^\t\t\tsplit(w)$#\t\t\t_ = w#' ./project -run 'TestACompoundNamePartIsSplitIntoTheTreesWords'
mutant "a description finds a compound name by its parts" project/documents.go 's#NameWords:   nameWords(vocab, s.Name),#NameWords:   nil,#' . -run 'TestALowercaseCompoundNameIsFoundByADescriptionOfItsParts'
mutant "name words are indexed with the name" retrieval/embedded/tokens.go 's#append(names, words...)#names#' ./retrieval/embedded -run 'TestNameWordsAreSearchedAsTheNameAndKept'
mutant "name words are stored" retrieval/embedded/embedded.go 's#r.nameWords = string(b)#_ = b#' ./retrieval/embedded -run 'TestNameWordsAreSearchedAsTheNameAndKept'
mutant "a replacement that changes only the name words rewrites the index" retrieval/embedded/sources.go 's#slices.Equal(a.NameWords, b.NameWords)#true#' ./retrieval/embedded -run 'TestNameWordsAreSearchedAsTheNameAndKept'
mutant "an update writes the files a vocabulary change splits differently" project/resolve.go 's#for _, path := range splitting {#for _, path := range splitting[:0] {#' ./project -run 'TestAnUpdateSplitsCompoundNamesAsAFreshBuildDoes'
mutant "an update counts the words a file no longer gives" project/namewords.go 's#if n == 0 {#if n < 0 {#' ./project -run 'TestAnUpdateSplitsCompoundNamesAsAFreshBuildDoes'
