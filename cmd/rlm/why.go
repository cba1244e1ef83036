package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/rlm-dev/rlm"
)

// printWhyNot prints the rules' verdict on a strategy or a symbol.
func printWhyNot(w io.Writer, v *rlm.WhyNot) {
	state := "not excluded"
	if v.Excluded {
		state = "excluded"
	}
	fmt.Fprintf(w, "whynot %s %s for %s: %s\n", v.Kind, printable(v.Target), strconv.Quote(clipText(v.Query, 200)), state)
	fmt.Fprintf(w, "  by %s  <- %s\n", v.Because.Rule, printable(strings.Join(v.Because.Premises, ", ")))
	if v.Change != "" {
		fmt.Fprintf(w, "  would have to change: %s\n", printable(v.Change))
	}
}

// printWhy prints an answer, its rule chain and the conclusion kept for it.
func printWhy(w io.Writer, y *rlm.Why) {
	printAnswer(w, y.Answer, true)
	if y.Conclusion == nil {
		return
	}
	from := "computed"
	if y.Served {
		from = "served from the cache"
	}
	fmt.Fprintf(w, "\nconclusion (%s):\n", from)
	printConclusion(w, *y.Conclusion, true)
}

// printConclusion prints one kept conclusion: label, kind, title, the
// rule that labelled it and, with premises, what it rests on.
func printConclusion(w io.Writer, c rlm.Conclusion, premises bool) {
	fmt.Fprintf(w, "  %-3s %-9s %s  <- %s\n", strings.ToUpper(string(c.Label)), c.Kind, strconv.Quote(clipText(c.Title, 80)), printable(c.Because.String()))
	if !premises {
		return
	}
	for _, p := range c.Premises {
		fmt.Fprintf(w, "      rests on %s\n", printable(p.String()))
	}
	for _, a := range c.Antecedents {
		fmt.Fprintf(w, "      rests on conclusion %s\n", printable(a))
	}
}

// printWhatIf prints the conclusions that would go OUT if paths changed.
func printWhatIf(w io.Writer, paths []string, ch []rlm.LabelChange) {
	fmt.Fprintf(w, "if %s changed, %d conclusion(s) would go OUT\n", printable(strings.Join(paths, ", ")), len(ch))
	for _, c := range ch {
		fmt.Fprintf(w, "  %-9s %s  <- %s; then %s\n", c.Kind, strconv.Quote(clipText(c.Title, 80)), printable(c.Because.String()), c.Action)
	}
}
