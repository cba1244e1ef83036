// Package eval is rlm's measuring stick: it builds retrieval tasks
// mechanically from a source tree, runs them through the product (the
// façade's Open and Search, rules and all) and through a BM25 baseline over
// declarations in the same run, and reports recall at 1 and 5, mean
// reciprocal rank and, for callers, set precision, recall and F1, with
// the explanation chain of every miss. A harness author compares two rule
// directories by running it twice with Options.Open.Rules set.
//
// Tasks (Task* constants):
//
//   - identifier: the bare name of a definition whose name no other
//     definition of the tree has; gold is that definition.
//   - description: the first sentence of a definition's doc comment;
//     gold is that definition.
//   - description_nodoc: the same queries on a copy of the tree with every
//     definition's doc comment removed (CodeSearchNet-style), in a
//     temporary directory.
//   - callers: "what calls NAME?" for Go functions and methods (NAME is
//     Recv.Name for methods, prefixed with the package name when another
//     definition of the tree has the same name); gold from go/types
//     (resolved calls between definitions of the tree). Trees
//     without Go code have no callers task: other languages have no exact
//     gold here, and the product's own references would be circular.
//
// Sampling is deterministic: the candidates in (path, line) order,
// permuted by a PCG seeded with Options.Seed.
package eval

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"

	"github.com/rlm-dev/rlm"
)

// Task names, the values of Options.Tasks.
const (
	TaskIdentifier       = "identifier"
	TaskCallers          = "callers"
	TaskDescription      = "description"
	TaskDescriptionNoDoc = "description_nodoc"
)

// Tasks is every task, in report order.
var Tasks = []string{TaskIdentifier, TaskCallers, TaskDescription, TaskDescriptionNoDoc}

// ErrUnknownTask: Options.Tasks names a task not in Tasks.
var ErrUnknownTask = errors.New("eval: unknown task")

// Options configure Run.
type Options struct {
	Root  string   // the tree; nothing is written under it
	Tasks []string // nil: all of Tasks
	N     int      // queries per task (0: 100); fewer if the tree has fewer candidates
	Seed  uint64
	// Limit is the hits asked per ranking query (0: 10); callers queries
	// ask for rlm.MaxLimit hits, so that the set is complete.
	Limit int
	// Open is how the product is opened (rules directory, embedder, size
	// cap); the knowledge base is always kept in a temporary directory.
	Open rlm.Options
}

// Scores of one system on one task, averaged over the task's queries.
// R1, R5 and MRR are for ranking tasks (MRR over the hits returned);
// Precision, Recall and F1 (macro-averaged) for set tasks (callers).
type Scores struct {
	R1        float64 `json:"r1"`
	R5        float64 `json:"r5"`
	MRR       float64 `json:"mrr"`
	Precision float64 `json:"precision,omitempty"`
	Recall    float64 `json:"recall,omitempty"`
	F1        float64 `json:"f1,omitempty"`
}

// Miss is a query the product did not answer right (rank not 1, or an
// incomplete or impure callers set), with what the rules did.
type Miss struct {
	Query string `json:"query"`
	Gold  string `json:"gold"`           // "path:line Qualified"
	Rank  int    `json:"rank,omitempty"` // of the gold in the product's hits; 0: not among them
	// BM25Rank is the gold's rank in the baseline's hits for the same
	// query (0: not among them; ranking tasks only).
	BM25Rank int      `json:"bm25_rank,omitempty"`
	Class    string   `json:"class"`
	Plan     []string `json:"plan"`    // executed steps, with their hit counts
	Explain  []string `json:"explain"` // the because chain: rule(premises)
	Top      []string `json:"top"`     // the first hits, "path:line Qualified"
	F1       float64  `json:"f1,omitempty"`
}

// TaskResult is one task's scores, side by side.
type TaskResult struct {
	Task     string `json:"task"`
	Queries  int    `json:"queries"`
	Gold     string `json:"gold"` // where the gold came from
	Note     string `json:"note,omitempty"`
	Product  Scores `json:"rlm"`
	Baseline Scores `json:"bm25"`
	Misses   []Miss `json:"misses,omitempty"`
}

// Report is the result of Run. Its JSON form is `rlm eval --json`.
type Report struct {
	Root         string       `json:"root"`
	Seed         uint64       `json:"seed"`
	Definitions  int          `json:"definitions"`
	Tasks        []TaskResult `json:"tasks"`
	DocsStripped int          `json:"docs_stripped,omitempty"` // definitions whose doc the nodoc copy lost
}

// Run builds the tasks from opts.Root and runs them. Errors: ErrUnknownTask,
// the walk's and the product's (rlm.Open, Search) errors.
func Run(ctx context.Context, opts Options) (*Report, error) {
	if opts.N <= 0 {
		opts.N = 100
	}
	if opts.Limit <= 0 {
		opts.Limit = rlm.DefaultLimit
	}
	tasks := opts.Tasks
	if len(tasks) == 0 {
		tasks = Tasks
	}
	for _, t := range tasks {
		if !slices.Contains(Tasks, t) {
			return nil, fmt.Errorf("%w: %q (want %s)", ErrUnknownTask, t, strings.Join(Tasks, ", "))
		}
	}
	opts.Open.InMemory, opts.Open.DBPath, opts.Open.Memory, opts.Open.Cases = true, "", false, false
	tr, err := loadTree(ctx, opts.Root, opts.Open.IncludeIgnored)
	if err != nil {
		return nil, err
	}
	rep := &Report{Root: opts.Root, Seed: opts.Seed, Definitions: len(tr.decls)}
	var prod *rlm.Project
	product := func() (*rlm.Project, error) {
		if prod == nil {
			prod, err = rlm.Open(ctx, opts.Root, opts.Open)
		}
		return prod, err
	}
	defer func() {
		if prod != nil {
			prod.Close()
		}
	}()
	for _, task := range Tasks {
		if !slices.Contains(tasks, task) {
			continue
		}
		var res TaskResult
		switch task {
		case TaskIdentifier:
			p, err := product()
			if err != nil {
				return nil, err
			}
			res, err = runRanking(ctx, p, tr, identifierQueries(tr, opts), opts.Limit)
			if err != nil {
				return nil, err
			}
			res.Gold = "definitions whose name is unique in the tree"
		case TaskDescription:
			p, err := product()
			if err != nil {
				return nil, err
			}
			res, err = runRanking(ctx, p, tr, descriptionQueries(tr, opts), opts.Limit)
			if err != nil {
				return nil, err
			}
			res.Gold = "the definition whose doc comment's first sentence is the query"
		case TaskDescriptionNoDoc:
			res, rep.DocsStripped, err = runNoDoc(ctx, tr, opts)
			if err != nil {
				return nil, err
			}
		case TaskCallers:
			p, err := product()
			if err != nil {
				return nil, err
			}
			res, err = runCallers(ctx, p, tr, opts)
			if err != nil {
				return nil, err
			}
		}
		res.Task = task
		rep.Tasks = append(rep.Tasks, res)
	}
	return rep, nil
}

// query is one ranking query and the definition that answers it.
type query struct {
	Text string
	Gold decl
}

// sample returns up to n of xs, deterministically for seed.
func sample[T any](xs []T, n int, seed uint64) []T {
	r := rand.New(rand.NewPCG(seed, 0x726c6d))
	perm := r.Perm(len(xs))
	if len(perm) > n {
		perm = perm[:n]
	}
	out := make([]T, len(perm))
	for i, j := range perm {
		out[i] = xs[j]
	}
	return out
}

// identifierQueries: definitions whose name no other definition has.
func identifierQueries(tr *tree, opts Options) []query {
	count := map[string]int{}
	for _, d := range tr.decls {
		count[d.Name]++
	}
	var qs []query
	for _, d := range tr.decls {
		if count[d.Name] == 1 && !declaration(d.Kind) {
			qs = append(qs, query{Text: d.Name, Gold: d})
		}
	}
	return sample(qs, opts.N, opts.Seed)
}

// descriptionQueries: first sentences of doc comments that no other
// definition's doc comment starts with.
func descriptionQueries(tr *tree, opts Options) []query {
	count := map[string]int{}
	for _, d := range tr.decls {
		if s := firstSentence(d.Doc); s != "" {
			count[s]++
		}
	}
	var qs []query
	for _, d := range tr.decls {
		if s := firstSentence(d.Doc); s != "" && count[s] == 1 && !declaration(d.Kind) {
			qs = append(qs, query{Text: s, Gold: d})
		}
	}
	return sample(qs, opts.N, opts.Seed)
}

// runRanking asks each query of the product and of the baseline built
// over tr, and scores the rank of the gold definition.
func runRanking(ctx context.Context, p *rlm.Project, tr *tree, qs []query, limit int) (TaskResult, error) {
	base := newBM25(tr.decls, tr.docText)
	res := TaskResult{Queries: len(qs)}
	for _, q := range qs {
		ans, err := p.Search(ctx, q.Text, limit)
		if err != nil {
			return res, fmt.Errorf("eval: %q: %w", q.Text, err)
		}
		r := 0
		for i, h := range ans.Hits {
			if (key{h.Path, h.StartLine}) == q.Gold.key() {
				r = i + 1
				break
			}
		}
		br := 0
		for i, d := range base.search(q.Text, limit) {
			if d.key() == q.Gold.key() {
				br = i + 1
				break
			}
		}
		addRank(&res.Product, r)
		addRank(&res.Baseline, br)
		if r != 1 {
			m := miss(q.Text, q.Gold, r, ans)
			m.BM25Rank = br
			res.Misses = append(res.Misses, m)
		}
	}
	average(&res.Product, len(qs))
	average(&res.Baseline, len(qs))
	return res, nil
}

func addRank(s *Scores, r int) {
	if r == 1 {
		s.R1++
	}
	if r >= 1 && r <= 5 {
		s.R5++
	}
	if r >= 1 {
		s.MRR += 1 / float64(r)
	}
}

func average(s *Scores, n int) {
	if n == 0 {
		return
	}
	f := float64(n)
	s.R1, s.R5, s.MRR = s.R1/f, s.R5/f, s.MRR/f
	s.Precision, s.Recall, s.F1 = s.Precision/f, s.Recall/f, s.F1/f
}

func miss(q string, gold decl, rank int, ans *rlm.Answer) Miss {
	m := Miss{Query: q, Gold: gold.loc(), Rank: rank, Class: ans.Class}
	for _, s := range ans.Plan {
		m.Plan = append(m.Plan, fmt.Sprintf("%s → %d", s.Step, s.Hits))
	}
	for _, b := range ans.Explain {
		m.Explain = append(m.Explain, b.Rule+"("+strings.Join(b.Premises, ", ")+")")
	}
	for i, h := range ans.Hits {
		if i == 3 {
			break
		}
		q := h.Qualified
		if q == "" {
			q = h.Symbol
		}
		m.Top = append(m.Top, fmt.Sprintf("%s:%d %s", h.Path, h.StartLine, q))
	}
	return m
}

// runNoDoc strips the doc comments into a temporary copy and asks the
// description queries of the original tree there.
func runNoDoc(ctx context.Context, tr *tree, opts Options) (TaskResult, int, error) {
	dir, err := os.MkdirTemp("", "rlm-eval-nodoc-")
	if err != nil {
		return TaskResult{}, 0, fmt.Errorf("eval: %w", err)
	}
	defer os.RemoveAll(dir)
	n, err := tr.stripDocs(dir)
	if err != nil {
		return TaskResult{}, 0, err
	}
	stripped, err := loadTree(ctx, dir, opts.Open.IncludeIgnored)
	if err != nil {
		return TaskResult{}, 0, err
	}
	p, err := rlm.Open(ctx, dir, opts.Open)
	if err != nil {
		return TaskResult{}, 0, err
	}
	defer p.Close()
	res, err := runRanking(ctx, p, stripped, descriptionQueries(tr, opts), opts.Limit)
	if err != nil {
		return res, 0, err
	}
	left := 0
	for _, d := range stripped.decls {
		if d.Doc != "" {
			left++
		}
	}
	res.Gold = "as description, on a copy of the tree without doc comments"
	res.Note = fmt.Sprintf("%d doc comments removed; %d definitions still have one in the copy", n, left)
	return res, n, nil
}
