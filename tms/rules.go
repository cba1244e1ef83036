package tms

import (
	"context"
	"fmt"
	"io/fs"

	"github.com/rlm-dev/rlm/engine"
	"github.com/rlm-dev/rlm/internal/textclip"
	"github.com/rlm-dev/rlm/rules"
)

// RulesOptions configure NewRules.
type RulesOptions struct {
	// Rules are the default label rules; nil means rules.FS's tms/ folder.
	Rules fs.FS
	// RulesDir is a harness author's rules directory; its tms/ folder, if
	// any, is layered over the defaults.
	RulesDir   string
	Inferences int64
}

// Rules are the loaded truth-maintenance rules (rules/tms). Safe for
// concurrent use.
type Rules struct {
	eng *engine.Engine
}

// batch bounds the nodes handed to the rules in one query: a node looks
// its antecedents up among the labels of its batch, so batches keep that
// linear.
const batch = 128

// EngineOptions are the engine options NewRules uses: the default tms
// rules (or opts.Rules) labelled "rules/tms" and the tms/ folder of
// opts.RulesDir. Rule tests use them with ruletest.Run.
func EngineOptions(opts RulesOptions) (engine.Options, error) {
	def := opts.Rules
	if def == nil {
		def = rules.Folder("tms")
	}
	layers, err := engine.ConcernLayers(def, "tms", opts.RulesDir)
	if err != nil {
		return engine.Options{}, err
	}
	return engine.Options{Layers: layers, Inferences: opts.Inferences, Vocabulary: Vocabulary()}, nil
}

// Vocabulary is the closed vocabulary of label/5 answers, checked in the
// rule files at load time: labels in/out and the actions.
func Vocabulary() []engine.TermShape {
	return []engine.TermShape{{Functor: "label", Arity: 5, Args: []engine.ArgShape{{}, {Name: "label", Atoms: []string{string(In), string(Out)}}, {},
		{Name: "action", Atoms: []string{string(ActionKeep), string(ActionWithdraw), string(ActionRederive), string(ActionRestore)}}}}}
}

// NewRules loads the truth-maintenance rules. Bad rule files give an
// *engine.LoadError.
func NewRules(opts RulesOptions) (*Rules, error) {
	eo, err := EngineOptions(opts)
	if err != nil {
		return nil, err
	}
	eng, err := engine.New(eo)
	if err != nil {
		return nil, err
	}
	return &Rules{eng: eng}, nil
}

// Engine is the rules' engine (rule IDs, tests).
func (r *Rules) Engine() *engine.Engine { return r.eng }

// node is one conclusion handed to the rules.
type node struct {
	rec  *Record
	obs  []engine.Term // premise(P, Observation), in premise order
	ante []string      // antecedent IDs
}

// decision is the rules' label/5 answer for a node.
type decision struct {
	label     Label
	why       Because
	action    Action
	actionWhy Because
}

// decide labels nodes, given in an order where every antecedent in the
// slice comes before its dependants. held gives the label of an
// antecedent outside nodes. It returns one decision per node.
func (r *Rules) decide(ctx context.Context, nodes []node, held func(id string) Label) ([]decision, error) {
	out := make([]decision, len(nodes))
	index := make(map[string]int, len(nodes))
	for i, n := range nodes {
		index[n.rec.ID] = i
	}
	for start := 0; start < len(nodes); start += batch {
		end := min(start+batch, len(nodes))
		terms := make([]engine.Term, 0, end-start)
		for i := start; i < end; i++ {
			n := nodes[i]
			as := make([]engine.Term, 0, len(n.ante))
			for _, a := range n.ante {
				if j, ok := index[a]; ok && j >= start {
					as = append(as, engine.Compound("ante", engine.Int(int64(j)), engine.String(a)))
					continue
				}
				l := held(a)
				if j, ok := index[a]; ok {
					l = out[j].label // decided in an earlier batch
				}
				as = append(as, engine.Compound("held", engine.Atom(string(l)), engine.String(a)))
			}
			terms = append(terms, engine.Compound("node", engine.Int(int64(i)), engine.Atom(string(n.rec.Kind)),
				engine.Atom(string(n.rec.Label)), engine.List(n.obs...), engine.List(as...)))
		}
		sol, err := r.eng.Once(ctx, "label_nodes", engine.List(terms...), engine.NewVar())
		if err != nil {
			return nil, fmt.Errorf("tms: labels: %w", err)
		}
		ls, ok := sol[1].([]any)
		if !ok || len(ls) != end-start {
			return nil, badTerm(sol[1], "want one label/5 per node")
		}
		for k, v := range ls {
			d, err := decodeDecision(v, int64(start+k))
			if err != nil {
				return nil, err
			}
			out[start+k] = d
		}
	}
	return out, nil
}

func badTerm(v any, reason string) error {
	return fmt.Errorf("%w: %s: %s", ErrBadRules, textclip.Clip(engine.FormatValue(v), 300), reason)
}

// decodeDecision reads label(I, Label, because(R, Ps), Action, because(R2, Ps2)).
func decodeDecision(v any, want int64) (decision, error) {
	c, ok := v.(engine.CompoundValue)
	if !ok || c.Functor != "label" || len(c.Args) != 5 {
		return decision{}, badTerm(v, "want label(I, Label, Because, Action, ActionBecause)")
	}
	if i, ok := c.Args[0].(int64); !ok || i != want {
		return decision{}, badTerm(v, fmt.Sprintf("labels out of order (want node %d)", want))
	}
	var d decision
	l, _ := c.Args[1].(engine.AtomValue)
	switch Label(l) {
	case In, Out:
		d.label = Label(l)
	default:
		return decision{}, badTerm(v, "the label must be in or out")
	}
	a, _ := c.Args[3].(engine.AtomValue)
	switch Action(a) {
	case ActionKeep, ActionWithdraw, ActionRederive, ActionRestore:
		d.action = Action(a)
	default:
		return decision{}, badTerm(v, "unknown action")
	}
	var err error
	if d.why, err = decodeBecause(c.Args[2]); err != nil {
		return decision{}, err
	}
	if d.actionWhy, err = decodeBecause(c.Args[4]); err != nil {
		return decision{}, err
	}
	return d, nil
}

func decodeBecause(v any) (Because, error) {
	c, ok := v.(engine.CompoundValue)
	if !ok || c.Functor != "because" || len(c.Args) != 2 {
		return Because{}, badTerm(v, "want because(RuleID, Premises)")
	}
	id, ok := c.Args[0].(engine.AtomValue)
	ps, ok2 := c.Args[1].([]any)
	if !ok || !ok2 {
		return Because{}, badTerm(v, "want because(Atom, List)")
	}
	b := Because{Rule: string(id), Premises: make([]string, len(ps))}
	for i, p := range ps {
		b.Premises[i] = engine.FormatValue(p)
	}
	return b, nil
}
