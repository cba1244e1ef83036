package eval

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// WriteText writes the report as a table, one row per task, the product
// and the baseline side by side; with misses, each miss follows with its
// class, plan and because chain.
func (r *Report) WriteText(w io.Writer, misses bool) error {
	fmt.Fprintf(w, "rlm eval %s (seed %d, %d definitions)\n", r.Root, r.Seed, r.Definitions)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "task\tn\trlm R@1\tR@5\tMRR\tP\tR\tF1\tbm25 R@1\tR@5\tMRR\tP\tR\tF1\t")
	for _, t := range r.Tasks {
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t\n", t.Task, t.Queries, cells(t.Task, t.Queries, t.Product), cells(t.Task, t.Queries, t.Baseline))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, t := range r.Tasks {
		fmt.Fprintf(w, "%s: gold: %s", t.Task, t.Gold)
		if t.Note != "" {
			fmt.Fprintf(w, "; %s", t.Note)
		}
		fmt.Fprintf(w, "; %d misses\n", len(t.Misses))
	}
	if !misses {
		return nil
	}
	for _, t := range r.Tasks {
		for _, m := range t.Misses {
			rank := "not found"
			if m.Rank > 0 {
				rank = fmt.Sprintf("rank %d", m.Rank)
			}
			if t.Task == TaskCallers {
				rank = fmt.Sprintf("F1 %.2f", m.F1)
			} else if m.BM25Rank > 0 {
				rank += fmt.Sprintf(", bm25 rank %d", m.BM25Rank)
			} else {
				rank += ", bm25 not found"
			}
			fmt.Fprintf(w, "\n[%s] %q → %s (class %s)\n  gold: %s\n", t.Task, m.Query, rank, m.Class, m.Gold)
			fmt.Fprintf(w, "  top:  %s\n", strings.Join(m.Top, " | "))
			fmt.Fprintf(w, "  plan: %s\n", strings.Join(m.Plan, "; "))
			for _, e := range m.Explain {
				fmt.Fprintf(w, "  because %s\n", e)
			}
		}
	}
	return nil
}

// cells are a task's scores as the table shows them: "–" where the task
// has no such score, and everywhere when it had no query (not measured:
// no score, rather than a score of 0).
func cells(task string, queries int, s Scores) string {
	if queries == 0 {
		return "–\t–\t–\t–\t–\t–"
	}
	if task == TaskCallers {
		return fmt.Sprintf("–\t–\t–\t%.3f\t%.3f\t%.3f", s.Precision, s.Recall, s.F1)
	}
	return fmt.Sprintf("%.3f\t%.3f\t%.3f\t–\t–\t–", s.R1, s.R5, s.MRR)
}
