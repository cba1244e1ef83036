// Package stopwords is rlm's one source of English stopwords, in two
// grades:
//
//   - Glue: the words people wrap around a name in a question ("where is X
//     defined", "what does Y do"). No identifier is spelled like them, so
//     lexical search drops them from queries (retrieval/embedded).
//   - Function: Glue plus the other English function words (articles,
//     auxiliaries, pronouns, prepositions, conjunctions, question words).
//     Some are names in code ("as", "any", "all"), so only query feature
//     extraction (bridge) drops them, when it counts content words.
//
// Each user adds the few words of its own job (request verbs in bridge;
// relation and cue words in retrieval/embedded).
package stopwords

import "strings"

func set(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

var glue = set(`a an and are be by do does for from how in is it of on or that the this to what where which who with`)

var function = set(`about all any as at been can could did here i if into its may me might my not our shall should
so some than then there these those was we were when whom whose why will would you your`)

// Glue reports whether the lowercased word w is question glue.
func Glue(w string) bool { return glue[w] }

// Function reports whether the lowercased word w is an English function
// word (Glue included).
func Function(w string) bool { return glue[w] || function[w] }
