package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/rlm-dev/rlm"
	"github.com/rlm-dev/rlm/internal/termsafe"
)

// stringList is a flag that may be given several times.
type stringList []string

func (s *stringList) String() string     { return strings.Join(*s, ",") }
func (s *stringList) Set(v string) error { *s = append(*s, v); return nil }

// compileFlags are the flags of `rlm compile` (and of the REPL's
// :compile, which takes the same catalog and rules).
type compileFlags struct {
	catalog, rules, model, mode string
	budget                      int
	caps, selected, denied      stringList
	signals, needs              stringList
}

func addCompileFlags(fs *flag.FlagSet, f *compileFlags) {
	fs.StringVar(&f.catalog, "catalog", "", "prompt-unit catalog file (YAML or JSON; see docs/prompt-compiler.md)")
	fs.StringVar(&f.rules, "rules", "", "directory whose prompt/ folder is layered over the default prompt rules")
	fs.StringVar(&f.model, "model", "", "model whose tokenizer counts the tokens (gpt-4o, gpt-4.1, gpt-5, o-series: o200k_base; others: cl100k_base)")
	fs.StringVar(&f.mode, "mode", "compiled", "compiled (the rules select) or all_tools (every tool, same path)")
	fs.IntVar(&f.budget, "budget", 0, "token budget of everything sent (0: none)")
	fs.Var(&f.caps, "cap", "a granted capability (repeat)")
	fs.Var(&f.selected, "select", "a unit id the host selects (repeat)")
	fs.Var(&f.denied, "deny", "a unit id the host denies (repeat)")
	fs.Var(&f.signals, "signal", "a trusted signal, e.g. git_repo (repeat)")
	fs.Var(&f.needs, "need", "a capability or topic word the task needs (repeat)")
}

func (f *compileFlags) input(query string) rlm.CompileInput {
	return rlm.CompileInput{Text: query, Signals: f.signals, Needs: f.needs, HostSelected: f.selected, HostDenied: f.denied, Capabilities: f.caps}
}

func (f *compileFlags) options() (rlm.CompileOptions, error) {
	mode := rlm.CompileMode(f.mode)
	if mode != rlm.ModeCompiled && mode != rlm.ModeAllTools {
		return rlm.CompileOptions{}, usageError{fmt.Sprintf("--mode %q: want compiled or all_tools", f.mode)}
	}
	if f.budget < 0 {
		return rlm.CompileOptions{}, usageError{"--budget must be 0 (none) or positive"}
	}
	return rlm.CompileOptions{Mode: mode, Budget: f.budget, Model: f.model}, nil
}

// open loads the catalog and the compiler. The caller releases the
// catalog.
func (f *compileFlags) open(ctx context.Context) (*rlm.Catalog, *rlm.Compiler, error) {
	if f.catalog == "" {
		return nil, nil, usageError{"--catalog FILE is required"}
	}
	cat, err := rlm.LoadCatalog(ctx, f.catalog, f.model)
	if err != nil {
		return nil, nil, err
	}
	c, err := rlm.NewCompiler(f.rules)
	if err != nil {
		cat.Release()
		return nil, nil, err
	}
	return cat, c, nil
}

// compileReport is `rlm compile --json`: the projection, and the rules'
// verdict for the first maxExplained units (catalog order) the compile
// did not hand to the rules; the ids of the others are in NotExplained.
type compileReport struct {
	Query         string         `json:"query"`
	Catalog       string         `json:"catalog"`
	Compiled      *rlm.Compiled  `json:"compiled"`
	NotCandidates []rlm.Decision `json:"not_candidates"`
	NotExplained  []string       `json:"not_explained"`
}

// maxExplained bounds the verdicts of units that are not candidates: each
// costs a compile of its own (Compiler.Why), so explaining all of a
// 2,000-unit catalog took a minute; `:why UNIT QUERY` explains any one.
const maxExplained = 100

// cmdCompile prints the compiled projection of a catalog for a query and
// why each unit is in or out.
func cmdCompile(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("compile", stderr)
	var f compileFlags
	addCompileFlags(fs, &f)
	asJSON := fs.Bool("json", false, "print JSON")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		return usageError{"a QUERY is required"}
	}
	opts, err := f.options()
	if err != nil {
		return err
	}
	cat, c, err := f.open(ctx)
	if err != nil {
		return termError{err}
	}
	defer cat.Release()
	rep, err := compileAll(ctx, c, cat, f.input(strings.Join(pos, " ")), opts)
	if err != nil {
		return termError{err}
	}
	rep.Catalog = f.catalog
	if *asJSON {
		return writeJSON(stdout, rep)
	}
	printCompiled(stdout, rep, true)
	return nil
}

// termError is an error whose message may quote a catalog or a model,
// printed with its control characters replaced (termsafe.String).
type termError struct{ err error }

func (e termError) Error() string { return termsafe.String(e.err.Error()) }
func (e termError) Unwrap() error { return e.err }

// compileAll compiles and explains the units of the catalog: the decided
// ones from the projection, at most maxExplained others with Why (the
// rest are listed by id).
func compileAll(ctx context.Context, c *rlm.Compiler, cat *rlm.Catalog, in rlm.CompileInput, opts rlm.CompileOptions) (*compileReport, error) {
	out, err := c.Compile(ctx, cat, in, opts)
	if err != nil {
		return nil, err
	}
	rep := &compileReport{Query: in.Text, Compiled: out, NotCandidates: []rlm.Decision{}, NotExplained: []string{}}
	decided := map[string]bool{}
	for _, d := range append(append([]rlm.Decision(nil), out.Active...), out.Rejected...) {
		decided[d.ID] = true
	}
	for _, u := range cat.Units() {
		if decided[u.ID] {
			continue
		}
		if len(rep.NotCandidates) >= maxExplained {
			rep.NotExplained = append(rep.NotExplained, u.ID)
			continue
		}
		d, err := c.Why(ctx, cat, in, opts, u.ID)
		if err != nil {
			return nil, err
		}
		rep.NotCandidates = append(rep.NotCandidates, *d)
	}
	return rep, nil
}

func printCompiled(w io.Writer, rep *compileReport, withText bool) {
	out := rep.Compiled
	budget := "none"
	if out.Ledger.Budget > 0 {
		budget = strconv.Itoa(out.Ledger.Budget)
	}
	fmt.Fprintf(w, "query: %s\nmode: %s   budget: %s   tokenizer: %s   candidates: %d\nfingerprint: %s\n",
		strconv.Quote(clipText(rep.Query, 200)), out.Mode, budget, out.Encoding, out.Candidates, out.Fingerprint)
	fmt.Fprintln(w, "\nactive (render order):")
	printDecisions(w, "+", out.Active)
	fmt.Fprintln(w, "rejected:")
	printDecisions(w, "-", out.Rejected)
	if len(rep.NotCandidates) > 0 {
		fmt.Fprintln(w, "not candidates (no lexical match and nothing calls for them; shown with the verdict the rules would give each):")
		printDecisions(w, "-", rep.NotCandidates)
	}
	if n := len(rep.NotExplained); n > 0 {
		shown := rep.NotExplained[:min(n, 20)]
		more := ""
		if n > len(shown) {
			more = ", ..."
		}
		fmt.Fprintf(w, "  ... and %d more not candidates, not explained (each verdict costs a compile; :why UNIT QUERY in rlm repl --catalog FILE explains one): %s%s\n",
			n, printable(strings.Join(shown, ", ")), more)
	}
	fmt.Fprintf(w, "ledger: text %d + tools %d = %d tokens (budget %s)\n", out.Ledger.Text, out.Ledger.Tools, out.Ledger.Total, budget)
	if !withText {
		return
	}
	fmt.Fprintln(w, "\n--- text (the prompt) ---")
	fmt.Fprint(w, termsafe.String(out.Text))
	fmt.Fprintln(w, "--- tools (the tool channel) ---")
	for _, t := range out.Tools {
		fmt.Fprintf(w, "%s: %s\n    %s\n", printable(t.Name), printable(clipText(t.Description, 200)), printable(clipText(string(t.Parameters), 400)))
	}
}

func printDecisions(w io.Writer, mark string, ds []rlm.Decision) {
	if len(ds) == 0 {
		fmt.Fprintln(w, "  (none)")
	}
	for _, d := range ds {
		fmt.Fprintf(w, "  %s %-24s %-12s %5d tok  %s\n", mark, printable(d.ID), d.Kind, d.Tokens, printable(because(d)))
	}
}

func because(d rlm.Decision) string {
	if len(d.Because.Premises) == 0 {
		return d.Because.Rule
	}
	return d.Because.Rule + " <- " + strings.Join(d.Because.Premises, ", ")
}
