package eval

import (
	"context"
	"fmt"
	"sort"

	"github.com/rlm-dev/rlm"
	"github.com/rlm-dev/rlm/sourcefacts"
)

// runCallers asks "what calls NAME?" for Go functions and methods the
// go/types gold says have callers, and scores the set of hits against the
// gold set. NAME is the definition's qualified name (Recv.Name for
// methods), prefixed with its package name ("pkg.Name", "pkg.Recv.Name")
// when another definition of the tree has the same qualified name: the
// name a user gives to ask about one of them. Hits in files
// the gold did not type-check (other languages, files another platform's
// build tags select) are left out of both sides. The product is asked for
// rlm.MaxLimit hits; the baseline's set is its first Options.Limit
// functions and methods for the same text.
func runCallers(ctx context.Context, p *rlm.Project, tr *tree, opts Options) (TaskResult, error) {
	res := TaskResult{Gold: "go/types: resolved calls between the tree's Go functions and methods"}
	byKey := map[key]decl{}
	goFiles := false
	for _, d := range tr.decls {
		byKey[d.key()] = d
		goFiles = goFiles || d.Language == sourcefacts.LangGo
	}
	if !goFiles {
		res.Note = "no Go code: no exact callers gold for other languages (not measured)"
		return res, nil
	}
	gold := goCallers(ctx, tr.root)
	var targets []decl
	for k, cs := range gold.callers {
		d, ok := byKey[k]
		if ok && len(cs) > 0 && (d.Kind == sourcefacts.KindFunction || d.Kind == sourcefacts.KindMethod) {
			targets = append(targets, d)
		}
	}
	sort.Slice(targets, func(i, j int) bool {
		a, b := targets[i], targets[j]
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		return a.Line < b.Line
	})
	targets = sample(targets, opts.N, opts.Seed)
	base := newBM25(tr.decls, tr.docText)
	for _, t := range targets {
		q := fmt.Sprintf("what calls %s?", callersName(t, tr.decls))
		want := gold.callers[t.key()]
		ans, err := p.Search(ctx, q, rlm.MaxLimit)
		if err != nil {
			return res, fmt.Errorf("eval: %q: %w", q, err)
		}
		got := map[key]bool{}
		for _, h := range ans.Hits {
			if k := (key{h.Path, h.StartLine}); gold.checked[h.Path] {
				got[k] = true
			}
		}
		pr, rc, f1 := setScores(got, want)
		res.Product.Precision += pr
		res.Product.Recall += rc
		res.Product.F1 += f1
		if f1 < 1 {
			m := miss(q, t, 0, ans)
			m.F1 = f1
			res.Misses = append(res.Misses, m)
		}
		bgot := map[key]bool{}
		for _, d := range base.search(q, 10*opts.Limit) {
			if len(bgot) == opts.Limit {
				break
			}
			if gold.checked[d.Path] && (d.Kind == sourcefacts.KindFunction || d.Kind == sourcefacts.KindMethod) {
				bgot[d.key()] = true
			}
		}
		pr, rc, f1 = setScores(bgot, want)
		res.Baseline.Precision += pr
		res.Baseline.Recall += rc
		res.Baseline.F1 += f1
	}
	res.Queries = len(targets)
	average(&res.Product, len(targets))
	average(&res.Baseline, len(targets))
	return res, nil
}

// callersName is how the callers task names d: its qualified name,
// prefixed with its package's name when another of decls has the same
// qualified name.
func callersName(d decl, decls []decl) string {
	same := 0
	for _, o := range decls {
		if o.Qualified == d.Qualified {
			same++
		}
	}
	if same > 1 && d.Package != "" {
		return d.Package + "." + d.Qualified
	}
	return d.Qualified
}

// setScores are the precision, recall and F1 of got against want (an
// empty got has precision 0).
func setScores(got, want map[key]bool) (p, r, f1 float64) {
	tp := 0
	for k := range got {
		if want[k] {
			tp++
		}
	}
	if len(got) > 0 {
		p = float64(tp) / float64(len(got))
	}
	if len(want) > 0 {
		r = float64(tp) / float64(len(want))
	}
	if p+r > 0 {
		f1 = 2 * p * r / (p + r)
	}
	return p, r, f1
}
