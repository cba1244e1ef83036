package eval

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
)

// Markdown writes the report as tables: one row per configuration
// (accuracy, clarify rate, latency, model calls, false-positive
// executions), then accuracy per category with each configuration as a
// column, then each configuration's counts per half of the corpus
// (Case.Half). With misses, it lists each configuration's misses after.
func (r *Report) Markdown(w io.Writer, misses bool) error {
	var b strings.Builder
	model := ""
	if r.Model != "" {
		model = " (repair model: " + r.Model + ")"
	}
	half := ""
	if r.Half != "" {
		half = ", the " + r.Half + " half only"
	}
	fmt.Fprintf(&b, "%d cases%s%s\n\n", r.Cases, half, model)
	b.WriteString("| configuration | accuracy | clarify rate | p50 | p99 | model calls | false-positive executions | wrong-argument accepts | errors | failed repairs |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|---|---|\n")
	for _, s := range r.Configs {
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %d | %d | %d | %d | %d of %d |\n", s.Config, pct(s.Correct, s.Cases), pct(s.Clarify, s.Cases),
			ms(s.P50), ms(s.P99), s.ModelCalls, s.FalsePositives, s.WrongArgs, s.Errors, s.failed(), s.Repairs)
	}
	for _, s := range r.Configs {
		if w := s.RepairWarning(); w != "" {
			b.WriteString("\nwarning: " + w + "\n")
		}
	}
	b.WriteString("\n| category | cases |")
	for _, s := range r.Configs {
		b.WriteString(" " + s.Config + " |")
	}
	b.WriteString("\n|---|---|" + strings.Repeat("---|", len(r.Configs)) + "\n")
	for i, c := range r.Categories {
		n := 0
		if len(r.Configs) > 0 {
			n = r.Configs[0].Categories[i].Cases
		}
		fmt.Fprintf(&b, "| %s | %d |", c, n)
		for _, s := range r.Configs {
			cs := s.Categories[i]
			fmt.Fprintf(&b, " %s (%d model calls, %d FP, p50 %s) |", pct(cs.Correct, cs.Cases), cs.ModelCalls, cs.FalsePositives, ms(cs.P50))
		}
		b.WriteString("\n")
	}
	b.WriteString("\n| configuration | half | cases | accuracy | exact | clarify rate | model calls | false-positive executions | wrong-argument accepts |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|---|\n")
	for _, s := range r.Configs {
		for _, h := range s.Halves {
			fmt.Fprintf(&b, "| %s | %s | %d | %s | %s | %s | %d | %d | %d |\n", s.Config, h.Half, h.Cases, pct(h.Correct, h.Cases),
				pct(h.ExactCorrect, h.ExactCases), pct(h.Clarify, h.Cases), h.ModelCalls, h.FalsePositives, h.WrongArgs)
		}
	}
	if misses {
		for _, s := range r.Configs {
			fmt.Fprintf(&b, "\n%s: %d misses\n", s.Config, len(s.Misses))
			for _, f := range s.Misses {
				fp := ""
				if f.FalsePositive {
					fp = "  FALSE POSITIVE"
				}
				fmt.Fprintf(&b, "  line %d [%s, %s] %q: want %s, got %s%s\n", f.Line, f.Category, f.Half, f.Utterance, f.Want, f.Got, fp)
			}
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func pct(n, of int) string {
	if of == 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f %%", 100*float64(n)/float64(of))
}

func ms(d time.Duration) string {
	return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000)
}

// failed is the number of repairs that did not end with an answer.
func (s *Score) failed() int {
	n := 0
	for _, c := range s.FailedRepairs {
		n += c
	}
	return n
}

// RepairWarning says, when some of a configuration's repairs failed, how
// many and why ("3 of 62 repairs failed (provider_error 3): ..."), so
// that a dead or refusing endpoint is not read as the model's accuracy;
// "" when none failed.
func (s *Score) RepairWarning() string {
	n := s.failed()
	if n == 0 {
		return ""
	}
	stops := make([]string, 0, len(s.FailedRepairs))
	for stop := range s.FailedRepairs {
		stops = append(stops, stop)
	}
	slices.Sort(stops)
	for i, stop := range stops {
		stops[i] = fmt.Sprintf("%s %d", stop, s.FailedRepairs[stop])
	}
	return fmt.Sprintf("%s: %d of %d repairs failed (%s); those turns were answered by the rules' fallback (a clarify), so this row does not measure the model",
		s.Config, n, s.Repairs, strings.Join(stops, ", "))
}
