package prompt

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/rlm-dev/rlm/engine"
	"github.com/rlm-dev/rlm/retrieval"
)

// Input is what one compile is for. Text is data only: it is searched
// (BM25 over the catalog) and never reaches the rules as text.
type Input struct {
	Text         string   // the task (user or model text), at most MaxTextBytes
	Signals      []string // trusted signals the host asserts, e.g. "git_repo" (match Unit.Triggers)
	Needs        []string // what the task needs: capability or topic words (match Unit.Keywords and Unit.Capabilities, case-insensitively; also searched)
	HostSelected []string // unit ids the host wants visible (ids not in the catalog are ignored)
	HostDenied   []string // unit ids the host forbids (wins over everything; ids not in the catalog are ignored)
	Capabilities []string // the capabilities granted for this call
	// Context are units for this compile only (e.g. retrieved evidence as
	// kind context): instruction, skill, resource or context units whose
	// ids differ from the catalog's and from each other; their relations
	// may name catalog units. They are always candidates; give them
	// activation always to have them wanted. This is the one path where an
	// id may start with ReservedPrefix, which no catalog can hold: the
	// harness names the units it adds so (the completion loop's evidence,
	// the intent router's candidates), and a host adding its own context
	// units next to the harness's should not.
	Context []Unit
}

// Options configure one compile.
type Options struct {
	Mode   Mode // "" means ModeCompiled
	Budget int  // tokens of everything sent (Text plus tool schemas); 0 means no limit
	// Model chooses the tokenizer encoding (EncodingFor); "" means the
	// catalog's.
	Model string
	// MaxCandidates bounds the lexical matches handed to the rules (0
	// means DefaultMaxCandidates; at most retrieval.MaxLimit). Always-on,
	// mandatory, host-selected, needed, signalled and context units, and
	// what candidates require or suggest, come on top.
	MaxCandidates int
}

// Limits of an Input.
const (
	DefaultMaxCandidates = 64
	MaxTextBytes         = 1 << 20 // Input.Text; the candidate search reads its first retrieval.MaxQueryBytes
	MaxHostIDs           = 4096    // HostSelected, HostDenied
	MaxContextUnits      = 1024
)

// Because is the reason for one decision: the rule's ID (registered with
// rule_id/2; `rlm rules ids` lists them) and its premises, each written as
// a Prolog term (strings quoted).
type Because struct {
	Rule     string   `json:"rule"`
	Premises []string `json:"premises"`
}

// Decision is what the compile decided about one unit.
type Decision struct {
	ID     string `json:"id"`
	Kind   Kind   `json:"kind"`
	Tokens int    `json:"tokens"` // what the unit costs (rendered block or serialised schema), in the compile's encoding
	Active bool   `json:"active"` // in the compiled projection
	// Candidate is false only for a Why answer about a unit the compile
	// did not hand to the rules (no good lexical match and nothing else
	// calls for it): Because is then the rules' verdict had it been one.
	Candidate bool    `json:"candidate"`
	Because   Because `json:"because"`
}

// Ledger is what the compiled projection costs, in tokens of the
// compile's encoding, counted (never estimated) on what is sent.
type Ledger struct {
	Budget int            `json:"budget"` // 0: none
	Text   int            `json:"text"`   // tokens of Compiled.Text
	Tools  int            `json:"tools"`  // tokens of the tool schemas, each serialised as JSON {name, description, parameters}
	Total  int            `json:"total"`  // Text + Tools; at most Budget when Budget > 0
	Units  map[string]int `json:"units"`  // per active unit: its block or schema
}

// Compiled is the compiled projection: what the model sees.
type Compiled struct {
	Mode     Mode     `json:"mode"`
	Encoding Encoding `json:"encoding"`
	// Text holds the active instructions, skills, resources and context,
	// by section in that order (then by priority, then catalog order);
	// it names the tools as active, never as registered, and never holds
	// a schema. "" when nothing is active.
	Text string `json:"text"`
	// Tools are exactly the active, packed tool units' schemas, each once,
	// in render order; they are sent only through the tool channel.
	Tools []ToolSchema `json:"tools"`
	// Active are the packed active units in render order (text units by
	// section, then tools); Rejected every other candidate, with the
	// rule's reason, then the units packing left out (pk_... rules).
	Active   []Decision `json:"active"`
	Rejected []Decision `json:"rejected"`
	Ledger   Ledger     `json:"ledger"`
	// Candidates is the number of units handed to the rules.
	Candidates int `json:"candidates"`
	// Fingerprint is the hex XXH64 of the canonical JSON of what the model
	// receives: mode, budget, the active unit ids in render order with
	// their content hashes, and the tool schemas as sent. The task text is
	// not part of it: two tasks compiled to the same projection share it.
	Fingerprint string `json:"fingerprint"`
}

// candidate is one unit handed to the rules.
type candidate struct {
	n             int // 1-based candidate number
	unit          *Unit
	order         int // render tie-break: catalog index, then context units after
	content       *content
	cost          int
	rank, percent int
	needs         []string
	signals       []string
	host          string
	links         [4][]int // requires, suggests, conflicts, supersedes as candidate numbers
	active        bool
	pulled        bool // active only because active units require or suggest it (in/3)
	because       Because
}

func (cd *candidate) decision(active bool, b Because) Decision {
	return Decision{ID: cd.unit.ID, Kind: cd.unit.Kind, Tokens: cd.cost, Active: active, Candidate: true, Because: b}
}

// Compile decides which units of cat the model sees for in: Go finds the
// candidates (BM25 over the catalog, plus always-on, mandatory,
// host-selected, needed, signalled and context units and what they
// require or suggest),
// the rules (rules/prompt) decide which are active and why, Go packs them
// to the budget, renders Text and the tool schemas, and counts them.
// Compile never releases cat.
//
// Errors: ErrReleased; ErrBadInput (wrapped) for out-of-range input or
// options; a *CatalogError for invalid context units; a *BudgetError
// (ErrBudget) when the mandatory units cannot fit; a *RuleError
// (ErrBadRules) for an answer outside the protocol; a *engine.QueryError
// when the rules run out of time or inferences.
func (c *Compiler) Compile(ctx context.Context, cat *Catalog, in Input, opts Options) (*Compiled, error) {
	out, _, err := c.run(ctx, cat, in, opts, "")
	return out, err
}

// Why explains one unit: the decision Compile makes for it with the same
// arguments, or, for a unit Compile does not hand to the rules, the rules'
// verdict had it been a candidate (Candidate false, Active false).
// Errors: ErrUnknownUnit, and Compile's.
func (c *Compiler) Why(ctx context.Context, cat *Catalog, in Input, opts Options, unitID string) (*Decision, error) {
	if cat == nil {
		return nil, fmt.Errorf("%w: no catalog", ErrBadInput)
	}
	_, inCatalog := cat.byID[unitID]
	inContext := slices.ContainsFunc(in.Context, func(u Unit) bool { return u.ID == unitID })
	if !inCatalog && !inContext {
		return nil, fmt.Errorf("%w: %q", ErrUnknownUnit, clipID(unitID))
	}
	res, _, err := c.run(ctx, cat, in, opts, "")
	if err != nil {
		return nil, err
	}
	for _, ds := range [][]Decision{res.Active, res.Rejected} {
		for _, d := range ds {
			if d.ID == unitID {
				return &d, nil
			}
		}
	}
	_, cands, err := c.run(ctx, cat, in, opts, unitID)
	if err != nil {
		return nil, err
	}
	for _, cd := range cands {
		if cd.unit.ID == unitID {
			d := cd.decision(false, cd.because)
			d.Candidate = false
			return &d, nil
		}
	}
	return nil, fmt.Errorf("%w: %q was not decided", ErrBadRules, clipID(unitID))
}

// run compiles; probe, if set, is a catalog unit id added to the
// candidates (for Why).
func (c *Compiler) run(ctx context.Context, cat *Catalog, in Input, opts Options, probe string) (*Compiled, []*candidate, error) {
	if cat == nil {
		return nil, nil, fmt.Errorf("%w: no catalog", ErrBadInput)
	}
	if err := cat.checkUsable(); err != nil {
		return nil, nil, err
	}
	if err := checkOptions(&opts); err != nil {
		return nil, nil, err
	}
	if err := checkInput(in); err != nil {
		return nil, nil, err
	}
	enc := cat.enc
	if opts.Model != "" {
		enc = EncodingFor(opts.Model)
	}
	costs, err := cat.unitCosts(enc)
	if err != nil {
		return nil, nil, err
	}
	extra, err := contextUnits(cat, in.Context, enc)
	if err != nil {
		return nil, nil, err
	}
	cands, err := gather(ctx, cat, costs, extra, in, opts, probe)
	if err != nil {
		return nil, nil, err
	}
	terms := make([]engine.Term, len(cands))
	for i, cd := range cands {
		terms[i] = unitTerm(cd)
	}
	called, ranked := partition(cands, opts.Mode, probe)
	answer, err := c.decide(ctx, inputTerm(in, opts.Mode), engine.Compound("units", terms...), called, ranked)
	if err != nil {
		return nil, nil, err
	}
	if err := decodeCompiled(answer, cands); err != nil {
		return nil, nil, err
	}
	out, err := c.project(cands, enc, opts)
	if err != nil {
		return nil, nil, err
	}
	return out, cands, nil
}

// decide asks the rules compile_units(In, Table, Called, Ranked,
// Compiled) and returns Compiled decoded, from the memo when the same
// terms were decided before. Only an answer decodeCompiled accepts is
// worth keeping, but keeping a bad one is harmless: it is rejected again
// on every use, as running the rules again would.
func (c *Compiler) decide(ctx context.Context, in, table, called, ranked engine.Term) (any, error) {
	var key string
	memo := false
	if c.memo != nil {
		if key, memo = memoKey(in, table, called, ranked); memo {
			if v, ok := c.memo.get(key); ok {
				return v, nil
			}
		}
	}
	v, err := c.eng.OnceOutput(ctx, "compile_units", in, table, called, ranked, engine.NewVar())
	if err != nil {
		return nil, fmt.Errorf("prompt: compile: %w", err)
	}
	if memo {
		c.memo.put(key, v)
	}
	return v, nil
}

func checkOptions(o *Options) error {
	switch o.Mode {
	case "":
		o.Mode = ModeCompiled
	case ModeCompiled, ModeAllTools:
	default:
		return fmt.Errorf("%w: unknown mode %q (want compiled or all_tools)", ErrBadInput, clipID(string(o.Mode)))
	}
	if o.Budget < 0 {
		return fmt.Errorf("%w: budget %d is negative", ErrBadInput, o.Budget)
	}
	switch {
	case o.MaxCandidates == 0:
		o.MaxCandidates = DefaultMaxCandidates
	case o.MaxCandidates < 0 || o.MaxCandidates > retrieval.MaxLimit:
		return fmt.Errorf("%w: max candidates %d outside 1..%d", ErrBadInput, o.MaxCandidates, retrieval.MaxLimit)
	}
	return nil
}

func checkInput(in Input) error {
	if len(in.Text) > MaxTextBytes {
		return fmt.Errorf("%w: text is %d bytes, over the limit of %d", ErrBadInput, len(in.Text), MaxTextBytes)
	}
	for _, l := range []struct {
		field string
		ws    []string
		max   int
	}{{"signals", in.Signals, MaxListItems}, {"needs", in.Needs, MaxListItems}, {"capabilities", in.Capabilities, MaxListItems},
		{"host selected", in.HostSelected, MaxHostIDs}, {"host denied", in.HostDenied, MaxHostIDs}} {
		if len(l.ws) > l.max {
			return fmt.Errorf("%w: %d %s, over the limit of %d", ErrBadInput, len(l.ws), l.field, l.max)
		}
		for _, w := range l.ws {
			if len(w) > MaxIDBytes || !utf8.ValidString(w) || strings.ContainsFunc(w, unicode.IsControl) {
				return fmt.Errorf("%w: %s entry %q must be at most %d bytes of printable UTF-8", ErrBadInput, l.field, clipID(w), MaxIDBytes)
			}
		}
	}
	if len(in.Context) > MaxContextUnits {
		return fmt.Errorf("%w: %d context units, over the limit of %d", ErrBadInput, len(in.Context), MaxContextUnits)
	}
	return nil
}

// contextUnits validates the per-call units and renders and counts them.
func contextUnits(cat *Catalog, units []Unit, enc Encoding) ([]*candidate, error) {
	var problems []UnitProblem
	seen := map[string]bool{}
	out := make([]*candidate, 0, len(units))
	for i, u := range units {
		u = cloneUnit(u)
		if u.Source == "" {
			u.Source = fmt.Sprintf("context[%d]", i)
		}
		bad := normalize(&u)
		if u.Kind.IsTool() {
			bad = append(bad, fieldProblem{"kind", "a context unit may not be a tool: tool schemas come from the catalog"})
		}
		if _, dup := cat.byID[u.ID]; dup || seen[u.ID] {
			bad = append(bad, fieldProblem{"id", "the id is already taken by the catalog or another context unit"})
		}
		seen[u.ID] = true
		for _, p := range bad {
			problems = append(problems, UnitProblem{Source: u.Source, ID: u.ID, Field: p.field, Reason: p.reason})
		}
		out = append(out, &candidate{unit: &u, order: len(cat.units) + i})
	}
	for _, cd := range out {
		for _, l := range links(cd.unit) {
			for _, id := range l.ids {
				if _, ok := cat.byID[id]; !ok && !seen[id] {
					problems = append(problems, UnitProblem{Source: cd.unit.Source, ID: cd.unit.ID, Field: l.field,
						Reason: fmt.Sprintf("%s %q: no such unit", l.field, clipID(id))})
				}
			}
		}
	}
	if len(problems) > 0 {
		return nil, &CatalogError{Problems: problems}
	}
	for _, cd := range out {
		ct, err := contentOf(cd.unit)
		if err != nil {
			return nil, err
		}
		if cd.cost, err = countTokens(enc, ct.text); err != nil {
			return nil, err
		}
		cd.content = &ct
	}
	return out, nil
}

// gather finds the candidates, numbers them (catalog order, then the
// context units) and fills in their features.
func gather(ctx context.Context, cat *Catalog, costs []int, extra []*candidate, in Input, opts Options, probe string) ([]*candidate, error) {
	query := in.Text
	if len(in.Needs) > 0 {
		query += "\n" + strings.Join(in.Needs, " ")
	}
	limit := opts.MaxCandidates
	if probe != "" {
		limit = retrieval.MaxLimit
	}
	hits, err := cat.lexical(ctx, query, limit)
	if err != nil {
		return nil, err
	}
	chosen := map[int]bool{}
	lex := map[int]lexHit{}
	for _, h := range hits {
		lex[h.unit] = h
		if h.rank <= opts.MaxCandidates {
			chosen[h.unit] = true
		}
	}
	for _, i := range cat.always {
		chosen[i] = true
	}
	// A mandatory unit is decided on every compile, whatever the lexical
	// cut: in Active, or in Rejected with the rules' reason.
	for _, i := range cat.mandate {
		chosen[i] = true
	}
	if opts.Mode == ModeAllTools {
		for _, i := range cat.tools {
			chosen[i] = true
		}
	}
	if i, ok := cat.byID[probe]; ok {
		chosen[i] = true
	}
	host := map[int]string{}
	for _, id := range in.HostSelected {
		if i, ok := cat.byID[id]; ok {
			chosen[i], host[i] = true, hostSelected
		}
	}
	for _, id := range in.HostDenied {
		if i, ok := cat.byID[id]; ok {
			chosen[i], host[i] = true, hostDenied
		}
	}
	needs := map[int][]string{}
	for _, w := range in.Needs {
		for _, i := range cat.words[strings.ToLower(w)] {
			chosen[i] = true
			needs[i] = appendNew(needs[i], w)
		}
	}
	signals := map[int][]string{}
	for _, s := range in.Signals {
		for _, i := range cat.triggers[s] {
			chosen[i] = true
			signals[i] = appendNew(signals[i], s)
		}
	}
	// What the candidates require or suggest, transitively.
	queue := make([]*Unit, 0, len(chosen)+len(extra))
	for i := range chosen {
		queue = append(queue, &cat.units[i])
	}
	for _, cd := range extra {
		queue = append(queue, cd.unit)
	}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		for _, ids := range [][]string{u.Requires, u.Suggests} {
			for _, id := range ids {
				if i, ok := cat.byID[id]; ok && !chosen[i] {
					chosen[i] = true
					queue = append(queue, &cat.units[i])
				}
			}
		}
	}
	idx := make([]int, 0, len(chosen))
	for i := range chosen {
		idx = append(idx, i)
	}
	sort.Ints(idx)
	cands := make([]*candidate, 0, len(idx)+len(extra))
	for _, i := range idx {
		h := lex[i]
		cands = append(cands, &candidate{unit: &cat.units[i], order: i, content: &cat.contents[i], cost: costs[i],
			rank: h.rank, percent: h.percent, needs: needs[i], signals: signals[i], host: host[i]})
	}
	for _, cd := range extra {
		for _, w := range in.Needs {
			if containsFold(cd.unit.Keywords, w) || containsFold(cd.unit.Capabilities, w) {
				cd.needs = appendNew(cd.needs, w)
			}
		}
		for _, s := range in.Signals {
			if slices.Contains(cd.unit.Triggers, s) {
				cd.signals = appendNew(cd.signals, s)
			}
		}
		cd.host = hostNone
		if slices.Contains(in.HostDenied, cd.unit.ID) {
			cd.host = hostDenied
		} else if slices.Contains(in.HostSelected, cd.unit.ID) {
			cd.host = hostSelected
		}
		cands = append(cands, cd)
	}
	num := make(map[string]int, len(cands))
	for i, cd := range cands {
		cd.n = i + 1
		num[cd.unit.ID] = cd.n
		if cd.host == "" {
			cd.host = hostNone
		}
	}
	for _, cd := range cands {
		for k, l := range links(cd.unit) {
			for _, id := range l.ids {
				if n, ok := num[id]; ok {
					cd.links[k] = append(cd.links[k], n)
				}
			}
		}
	}
	closeRequires(cands)
	return cands, nil
}

// closeRequires replaces each candidate's Requires with every candidate
// it requires directly or through others (the rules read it closed, see
// rules/prompt/units.pl), nearest first.
func closeRequires(cands []*candidate) {
	direct := make([][]int, len(cands))
	for i, cd := range cands {
		direct[i] = cd.links[0]
	}
	for i, cd := range cands {
		if len(direct[i]) == 0 {
			continue
		}
		seen := map[int]bool{cd.n: true}
		var all []int
		queue := slices.Clone(direct[i])
		for len(queue) > 0 {
			n := queue[0]
			queue = queue[1:]
			if seen[n] {
				continue
			}
			seen[n] = true
			all = append(all, n)
			queue = append(queue, direct[n-1]...)
		}
		cd.links[0] = all
	}
}

func appendNew(xs []string, x string) []string {
	if slices.Contains(xs, x) {
		return xs
	}
	return append(xs, x)
}

func containsFold(xs []string, x string) bool {
	return slices.ContainsFunc(xs, func(y string) bool { return strings.EqualFold(x, y) })
}

// unitTerm is the candidate as the rules read it (rules/prompt/units.pl):
// unit(N, Id, Kind, Activation, Host, Rank, Percent, Needs, Signals, Caps,
// Requires, Suggests, Conflicts, Supersedes, Priority, Mandatory). Text is
// passed as strings; Kind, Activation and Host are atoms of closed
// vocabularies checked by normalize.
func unitTerm(cd *candidate) engine.Term {
	u := cd.unit
	ls := make([]engine.Term, 4)
	for k, ns := range cd.links {
		ts := make([]engine.Term, len(ns))
		for i, n := range ns {
			ts[i] = engine.Int(int64(n))
		}
		ls[k] = engine.List(ts...)
	}
	mandatory := "false"
	if u.Mandatory {
		mandatory = "true"
	}
	return engine.Compound("unit",
		engine.Int(int64(cd.n)),
		engine.String(u.ID),
		engine.Atom(string(u.Kind)),
		engine.Atom(string(u.Activation)),
		engine.Atom(cd.host),
		engine.Int(int64(cd.rank)), engine.Int(int64(cd.percent)), engine.Strings(cd.needs), engine.Strings(cd.signals),
		engine.Strings(u.Capabilities),
		ls[0], ls[1], ls[2], ls[3],
		engine.Int(int64(u.Priority)),
		engine.Atom(mandatory))
}

// inputTerm is input(Mode, Granted, Signals, Needs).
func inputTerm(in Input, mode Mode) engine.Term {
	return engine.Compound("input", engine.Atom(string(mode)), engine.Strings(in.Capabilities), engine.Strings(in.Signals), engine.Strings(in.Needs))
}

// partition splits the candidates into the numbers of those something
// besides a lexical match calls for (activation always, mandatory, a host
// flag, a need, a signal, mode all_tools for a tool, the Why probe) and the
// others, best lexical rank first and unmatched last: the Called and
// Ranked arguments of compile_units/5 (rules/prompt/units.pl).
func partition(cands []*candidate, mode Mode, probe string) (called, ranked engine.Term) {
	var cs []engine.Term
	var rs []*candidate
	for _, cd := range cands {
		u := cd.unit
		if u.Activation == ActivationAlways || u.Mandatory || cd.host != hostNone || len(cd.needs) > 0 || len(cd.signals) > 0 ||
			(mode == ModeAllTools && u.Kind.IsTool()) || (probe != "" && u.ID == probe) {
			cs = append(cs, engine.Int(int64(cd.n)))
		} else {
			rs = append(rs, cd)
		}
	}
	slices.SortStableFunc(rs, func(a, b *candidate) int {
		switch {
		case a.rank == b.rank:
			return a.n - b.n
		case a.rank == 0:
			return 1
		case b.rank == 0:
			return -1
		}
		return a.rank - b.rank
	})
	ts := make([]engine.Term, len(rs))
	for i, cd := range rs {
		ts[i] = engine.Int(int64(cd.n))
	}
	return engine.List(cs...), engine.List(ts...)
}

// decodeCompiled reads compiled(In, Out, Default): in(N, because(R, Ps)),
// in(N, because(R, Ps), pulled) and out(N, because(R, Ps)), each
// candidate at most once; every candidate neither names is out with
// Default.
func decodeCompiled(v any, cands []*candidate) error {
	const pred = "compile_units/5"
	c, ok := v.(engine.CompoundValue)
	if !ok || c.Functor != "compiled" || len(c.Args) != 3 {
		return badTerm(pred, v, "want compiled(In, Out, Default)")
	}
	def, err := decodeBecause(pred, c.Args[2])
	if err != nil {
		return err
	}
	decided := make([]bool, len(cands))
	for i, functor := range []string{"in", "out"} {
		l, ok := c.Args[i].([]any)
		if !ok {
			return badTerm(pred, c.Args[i], "the %s list must be a list of %s(N, because(RuleID, Premises))", functor, functor)
		}
		for _, e := range l {
			d, ok := e.(engine.CompoundValue)
			pulled := ok && functor == "in" && len(d.Args) == 3 && d.Args[2] == engine.AtomValue("pulled")
			if !ok || d.Functor != functor || len(d.Args) != 2 && !pulled {
				if functor == "in" {
					return badTerm(pred, e, "want in(N, because(RuleID, Premises)) or in(N, because(RuleID, Premises), pulled)")
				}
				return badTerm(pred, e, "want %s(N, because(RuleID, Premises))", functor)
			}
			n, ok := d.Args[0].(int64)
			if !ok || n < 1 || n > int64(len(cands)) {
				return badTerm(pred, e, "N must be a candidate number 1..%d", len(cands))
			}
			if decided[n-1] {
				return badTerm(pred, e, "candidate %d (%q) is decided twice", n, clipID(cands[n-1].unit.ID))
			}
			decided[n-1] = true
			b, err := decodeBecause(pred, d.Args[1])
			if err != nil {
				return err
			}
			cands[n-1].active, cands[n-1].pulled, cands[n-1].because = functor == "in", pulled, b
		}
	}
	for i, ok := range decided {
		if !ok {
			cands[i].active, cands[i].because = false, def
		}
	}
	return nil
}

func decodeBecause(pred string, v any) (Because, error) {
	c, ok := v.(engine.CompoundValue)
	if !ok || c.Functor != "because" || len(c.Args) != 2 {
		return Because{}, badTerm(pred, v, "want because(RuleID, Premises)")
	}
	rule, ok := c.Args[0].(engine.AtomValue)
	if !ok {
		return Because{}, badTerm(pred, v, "a rule ID must be an atom")
	}
	ps, ok := c.Args[1].([]any)
	if !ok {
		return Because{}, badTerm(pred, v, "premises must be a list")
	}
	b := Because{Rule: string(rule), Premises: make([]string, len(ps))}
	for i, p := range ps {
		b.Premises[i] = engine.FormatValue(p)
	}
	return b, nil
}
