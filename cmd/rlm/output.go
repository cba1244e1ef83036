package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/rlm-dev/rlm"
	"github.com/rlm-dev/rlm/internal/textclip"
)

func clipText(s string, n int) string { return textclip.Clip(s, n) }

// matchWords say how a graph hit's calls matched (rlm.Hit.Match).
var matchWords = map[string]string{
	rlm.MatchResolved: "(resolved)",
	rlm.MatchExternal: "(external: defined outside the tree)",
	rlm.MatchName:     "(by name only)",
}

func printAnswer(w io.Writer, a *rlm.Answer, explain bool) {
	// An answer for another name than the query's says so first, before
	// any hit can be read as the query's.
	if a.Resolved != nil {
		fmt.Fprintf(w, "note: no symbol %s; answered for %s instead (%s)\n",
			strconv.Quote(a.Resolved.From), strconv.Quote(a.Resolved.To), a.Resolved.Rule)
	}
	if len(a.Hits) == 0 {
		fmt.Fprintln(w, "no hits")
	}
	for i, h := range a.Hits {
		name := h.Qualified
		if name == "" {
			name = h.Symbol
		}
		extra := ""
		if h.Role != "" && h.Role != "source" {
			extra = " [" + h.Role + "]"
		}
		if len(h.Lines) > 0 {
			extra += fmt.Sprintf("  calls at %s", joinInts(h.Lines, 5))
		}
		how := h.Strategy
		if h.Match != "" {
			how += " " + matchWords[h.Match]
		}
		fmt.Fprintf(w, "%2d. %s:%d %s (%s) %s%s\n", i+1, printable(h.Path), h.StartLine, printable(name), h.Kind, how, extra)
	}
	if a.Total > len(a.Hits) {
		fmt.Fprintf(w, "(%d of %d; --limit N for more)\n", len(a.Hits), a.Total)
	}
	fmt.Fprintf(w, "\nclass: %s\n", a.Class)
	if a.Snapshot != nil {
		fmt.Fprintf(w, "snapshot: %s\n", a.Snapshot)
	}
	fmt.Fprintln(w, "plan:")
	for i, s := range a.Plan {
		verdict := ""
		if len(s.Because) > 0 {
			verdict = s.Because[0].Rule
		}
		fmt.Fprintf(w, "  %d. %-48s %-8s %3d hits  -> %s\n", i+1, printable(s.Step.String()), s.Role, s.Hits, verdict)
	}
	if a.Gap != "" {
		fmt.Fprintf(w, "gap: %s\n", printable(a.Gap))
	}
	for _, n := range a.Notes {
		fmt.Fprintf(w, "note: %s\n", printable(n))
	}
	printSkipped(w, a.Skipped)
	printUnwalked(w, a.Unwalked)
	printNotCurrent(w, a.NotCurrent)
	if explain {
		fmt.Fprintln(w, "\nwhy:")
		for _, b := range a.Explain {
			printBecause(w, b.Rule, b.Premises)
		}
	}
}

// printBecause prints one decision of a chain: "  rule  <- premises".
func printBecause(w io.Writer, rule string, premises []string) {
	fmt.Fprintf(w, "  %s", rule)
	if len(premises) > 0 {
		fmt.Fprintf(w, "  <- %s", printable(strings.Join(premises, ", ")))
	}
	fmt.Fprintln(w)
}

func printExplanation(w io.Writer, e *rlm.Explanation) {
	fmt.Fprintf(w, "query: %s\n", strconv.Quote(clipText(e.Query, 200)))
	if len(e.Because) > 0 {
		cls := e.Because[0]
		fmt.Fprintf(w, "class: %s\n└─ %s  <- %s\n", e.Class, cls.Rule, printable(strings.Join(cls.Premises, ", ")))
	} else {
		fmt.Fprintf(w, "class: %s (the rules gave no reason)\n", e.Class)
	}
	fmt.Fprintln(w, "plan (cost order):")
	for i, s := range e.Steps {
		last := i == len(e.Steps)-1
		branch, cont := "├─", "│  "
		if last {
			branch, cont = "└─", "   "
		}
		why := ""
		if i+1 < len(e.Because) {
			b := e.Because[i+1]
			why = fmt.Sprintf("  <- %s(%s)", b.Rule, strings.Join(b.Premises, ", "))
		}
		fmt.Fprintf(w, "%s %d. %s [%s]%s\n", branch, i+1, printable(s.String()), s.Role, printable(why))
		var cs []int
		for j, c := range e.Contingencies {
			if c.Step.String() == s.String() && c.Step.Role == s.Role {
				cs = append(cs, j)
			}
		}
		for k, j := range cs {
			c := e.Contingencies[j]
			b2 := "├─"
			if k == len(cs)-1 {
				b2 = "└─"
			}
			var fb []string
			for _, f := range c.Fallback {
				fb = append(fb, f.String())
			}
			fmt.Fprintf(w, "%s %s if %s: %s  <- %s\n", cont, b2, printable(c.Gap), printable(strings.Join(fb, ", ")), c.Because.Rule)
		}
	}
}

// printable quotes s if it holds control or non-printable characters, so
// that a file name or query cannot move the cursor or retitle the terminal.
// printable returns s, or s quoted (control characters and bytes that are
// not UTF-8 as escapes) if it holds anything but printable characters.
func printable(s string) string {
	if !utf8.ValidString(s) || strings.ContainsFunc(s, func(r rune) bool { return !unicode.IsPrint(r) }) {
		return strconv.Quote(s)
	}
	return s
}

func joinInts(xs []int, max int) string {
	var parts []string
	for i, x := range xs {
		if i == max {
			parts = append(parts, fmt.Sprintf("+%d more", len(xs)-max))
			break
		}
		parts = append(parts, fmt.Sprint(x))
	}
	return strings.Join(parts, ",")
}

// printUnwalked says which paths the walk could not see: "note: 1 path
// could not be read: locked (open: permission denied); see rlm status",
// the first few named.
func printUnwalked(w io.Writer, faults []rlm.SkippedFile) {
	printFileNote(w, faults, "path", func(f rlm.SkippedFile) string { return printable(f.Path) + " (" + printable(f.Reason) + ")" },
		"note: %d %s could not be read: %s; see rlm status\n")
}

// printNotCurrent says which files a read-only knowledge base could not
// bring up to date: "note: the knowledge base is read-only: 1 file not
// current (beta.go: changed since its last generation); see rlm status".
func printNotCurrent(w io.Writer, files []rlm.SkippedFile) {
	printFileNote(w, files, "file", func(f rlm.SkippedFile) string {
		return printable(f.Path) + ": " + printable(strings.TrimSpace(strings.TrimPrefix(f.Reason, rlm.ReadOnlyReason)))
	}, "note: the knowledge base is read-only: %d %s not current (%s); see rlm status\n")
}

// printSkipped says which files an answer could not see: "note: 1 file
// skipped: too large (big.go)", the first few named.
func printSkipped(w io.Writer, skipped []rlm.SkippedFile) {
	printFileNote(w, skipped, "file", func(f rlm.SkippedFile) string { return printable(f.Path) },
		"note: %d %s skipped: too large (%s); see rlm status\n")
}

// printFileNote prints format with the number of files, noun (plural
// unless one) and the first three named by name, then "and N more";
// nothing when there are none.
func printFileNote(w io.Writer, files []rlm.SkippedFile, noun string, name func(rlm.SkippedFile) string, format string) {
	if len(files) == 0 {
		return
	}
	var names []string
	for i, f := range files {
		if i == 3 {
			names = append(names, fmt.Sprintf("and %d more", len(files)-3))
			break
		}
		names = append(names, name(f))
	}
	if len(files) != 1 {
		noun += "s"
	}
	fmt.Fprintf(w, format, len(files), noun, strings.Join(names, ", "))
}
