package stopwords

import "testing"

func TestGlueIsAFunctionWordAndNamesAreNeither(t *testing.T) {
	for _, w := range []string{"the", "where", "is", "does", "with"} {
		if !Glue(w) || !Function(w) {
			t.Errorf("%q should be glue and a function word", w)
		}
	}
	for _, w := range []string{"as", "any", "all", "when"} {
		if Glue(w) || !Function(w) {
			t.Errorf("%q: a function word that may name code must not be glue", w)
		}
	}
	for _, w := range []string{"get", "send", "parse", "server", "call", "The"} {
		if Glue(w) || Function(w) {
			t.Errorf("%q should be neither (input is lowercased)", w)
		}
	}
}
