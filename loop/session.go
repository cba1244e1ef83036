package loop

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/rlm-dev/rlm/planner"
	"github.com/rlm-dev/rlm/prompt"
	"github.com/rlm-dev/rlm/tms"
)

// Memory keeps a Session's context true between turns (truth
// maintenance, package tms): the façade's *rlm.Project opened with
// Options.Memory satisfies it. Conclusions are kept under a scope (one
// per session).
type Memory interface {
	// Revalidate re-checks the snapshot against the files and relabels
	// the kept conclusions.
	Revalidate(ctx context.Context) error
	// JustifyRetrieval keeps ans, the retrieval planner's answer to query
	// on the current snapshot, and returns its conclusion ID.
	JustifyRetrieval(ctx context.Context, scope, query string, ans *planner.Answer) (string, error)
	// JustifyContext keeps a context unit, the excerpt ref read from the
	// bytes with ref.ContentHash, resting on the retrieval retrievalID,
	// and returns its conclusion ID.
	JustifyContext(ctx context.Context, scope string, ref ContextRef, retrievalID string) (string, error)
	// Records returns the kept record of each ID (IDs no longer kept are
	// absent).
	Records(ctx context.Context, ids []string) (map[string]tms.Record, error)
	// Forget drops the scope's conclusions.
	Forget(ctx context.Context, scope string) error
}

// ContextRef names a context unit: lines StartLine..EndLine (1-based,
// inclusive) of the file at Path as read from the bytes with ContentHash.
type ContextRef struct {
	Path        string `json:"path"`
	StartLine   int    `json:"start_line"`
	EndLine     int    `json:"end_line"`
	Symbol      string `json:"symbol,omitempty"`
	ContentHash string `json:"content_hash"`
}

func (r ContextRef) String() string {
	return fmt.Sprintf("%s:%d-%d %s (%s)", r.Path, r.StartLine, r.EndLine, r.Symbol, r.ContentHash)
}

// ContextChange is a context unit that went OUT, and the rule (and the
// premise) that put it OUT.
type ContextChange struct {
	ContextRef
	Because tms.Because `json:"because"`
}

// TurnResult is a Session turn: the Run's result, and what happened to
// the context the session carried into it.
type TurnResult struct {
	*Result
	// Withdrawn: context units that went OUT since the last turn (a file
	// they rest on changed, or the retrieval they came from went OUT);
	// they are not shown any more.
	Withdrawn []ContextChange `json:"withdrawn,omitempty"`
	// Rederived: context units re-derived for this turn, by running again
	// the retrievals whose units went OUT.
	Rederived []ContextRef `json:"rederived,omitempty"`
	// Restored: context units IN again without recomputation (the bytes
	// they were read from are back).
	Restored []ContextRef `json:"restored,omitempty"`
	// Carried: the context units the session carried into this turn, in
	// the order shown (host context units "rlm:session:N").
	Carried []ContextRef `json:"carried,omitempty"`
}

// MaxSessionUnits bounds the context units a session keeps (IN and OUT);
// the oldest go first.
const MaxSessionUnits = 64

// Session answers the turns of one conversation with Run, carrying the
// evidence of earlier turns into later ones as context units, and keeps
// that context true: before each turn the Memory relabels it against the
// current snapshot; units whose premises changed are withdrawn (and
// reported), the retrievals they came from are run again for fresh units,
// and units whose bytes are back are restored without recomputation.
// Run's own behaviour is unchanged: a session only adds host context
// units to Options.Input.Context and watches the retrievals Run makes.
// Safe for concurrent use; turns run one at a time.
type Session struct {
	opts  Options
	mem   Memory
	scope string

	mu          sync.Mutex
	units       []*carried
	rederivings int
}

// carried is a context unit a session keeps.
type carried struct {
	ev          evidence
	id          string    // its conclusion
	retrievalID string    // the retrieval it rests on
	query       string    // that retrieval's query
	label       tms.Label // as of the last turn
}

func (c *carried) ref() ContextRef {
	return ContextRef{Path: c.ev.Path, StartLine: c.ev.StartLine, EndLine: c.ev.EndLine, Symbol: c.ev.Symbol, ContentHash: c.ev.ContentHash}
}

// NewSession starts a conversation with opts (Retriever is required: a
// session's context comes from it) kept true by mem.
func NewSession(opts Options, mem Memory) (*Session, error) {
	if opts.Retriever == nil || mem == nil {
		return nil, errors.New("loop: a session needs Options.Retriever and a Memory")
	}
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		return nil, err
	}
	return &Session{opts: opts, mem: mem, scope: "session:" + hex.EncodeToString(b[:])}, nil
}

// CitationObserver may be implemented by a Session's Retriever: after each
// turn's Run, Cited is given the turn's citations (the evidence handed to
// the model, each marked cited or not). rlm's project revises the kept
// cases the evidence came from with it. An error from Cited is joined to
// the turn's error; the turn's result stands.
type CitationObserver interface {
	Cited(ctx context.Context, cites []Citation) error
}

// Scope is the prefix of the keys of the session's conclusions.
func (s *Session) Scope() string { return s.scope }

// Rederivations counts the retrievals the session ran again because their
// context went OUT.
func (s *Session) Rederivations() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.rederivings
}

// Close forgets the session's conclusions.
func (s *Session) Close(ctx context.Context) error { return s.mem.Forget(ctx, s.scope) }

// recorder is a Retriever that remembers the answers it gave.
type recorder struct {
	Retriever
	mu      sync.Mutex
	answers []recorded
}

type recorded struct {
	query string
	ans   *planner.Answer
}

func (r *recorder) Search(ctx context.Context, query string, limit int) (*planner.Answer, error) {
	ans, err := r.Retriever.Search(ctx, query, limit)
	if err == nil {
		r.mu.Lock()
		r.answers = append(r.answers, recorded{query: query, ans: ans})
		r.mu.Unlock()
	}
	return ans, err
}

func (r *recorder) taken() []recorded {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := r.answers
	r.answers = nil
	return out
}

// Turn answers question with Run, carrying the session's context (see
// Session). The TurnResult is never nil; its error is Run's (a
// *StopError), or the Memory's when the context could not be checked.
func (s *Session) Turn(ctx context.Context, question string) (*TurnResult, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	tr := &TurnResult{Result: &Result{Citations: []Citation{}}}
	if err := s.revalidate(ctx, tr); err != nil {
		tr.Stop = StopRetrieveError
		return tr, fmt.Errorf("loop: session context: %w", err)
	}
	opts := s.opts
	rec := &recorder{Retriever: s.opts.Retriever}
	opts.Retriever = rec
	var host []prompt.Unit
	for _, c := range s.units {
		if c.label == tms.In {
			host = append(host, evidenceUnit(fmt.Sprintf("%ssession:%d", prompt.ReservedPrefix, len(host)+1), "session", -len(host), c.ev))
			tr.Carried = append(tr.Carried, c.ref())
		}
	}
	opts.Input.Context = append(host, s.opts.Input.Context...)
	res, err := Run(ctx, question, opts)
	tr.Result = res
	if kerr := s.keep(context.WithoutCancel(ctx), rec.taken(), res.Citations); kerr != nil && err == nil {
		err = fmt.Errorf("loop: session context: %w", kerr)
	}
	if o, ok := s.opts.Retriever.(CitationObserver); ok {
		if cerr := o.Cited(context.WithoutCancel(ctx), res.Citations); cerr != nil {
			err = errors.Join(err, fmt.Errorf("loop: citations: %w", cerr))
		}
	}
	return tr, err
}

// revalidate relabels the session's units, reports those withdrawn and
// restored, and re-derives the retrievals whose units went OUT unless
// another retrieval for the same query is IN.
func (s *Session) revalidate(ctx context.Context, tr *TurnResult) error {
	if len(s.units) == 0 {
		return nil
	}
	if err := s.mem.Revalidate(ctx); err != nil {
		return err
	}
	var ids []string
	for _, c := range s.units {
		ids = append(ids, c.id, c.retrievalID)
	}
	recs, err := s.mem.Records(ctx, ids)
	if err != nil {
		return err
	}
	var again []string // queries to re-derive
	for _, c := range s.units {
		r, kept := recs[c.id]
		now := tms.Out
		if kept {
			now = r.Label
		}
		switch {
		case c.label == tms.In && now == tms.Out:
			tr.Withdrawn = append(tr.Withdrawn, ContextChange{ContextRef: c.ref(), Because: r.Because})
			if !kept || r.Action == tms.ActionRederive {
				again = append(again, c.query)
			}
		case c.label == tms.Out && now == tms.In:
			tr.Restored = append(tr.Restored, c.ref())
		}
		c.label = now
	}
	for _, q := range again {
		if slices.Contains(again[:slices.Index(again, q)], q) || s.retrievalIn(q, recs) {
			continue
		}
		rec := &recorder{Retriever: s.opts.Retriever}
		lim := s.opts.Limits.withDefaults()
		r, err := retrieve(ctx, rec, q, lim.Evidence, lim.EvidenceLine)
		if err != nil {
			return err
		}
		s.rederivings++
		before := len(s.units)
		if err := s.keepRetrieval(ctx, rec.taken(), r.Hits); err != nil {
			return err
		}
		for _, c := range s.units[before:] {
			tr.Rederived = append(tr.Rederived, c.ref())
		}
	}
	return nil
}

// retrievalIn reports whether a retrieval for query that a kept unit
// rests on is IN.
func (s *Session) retrievalIn(query string, recs map[string]tms.Record) bool {
	for _, c := range s.units {
		if c.query == query && recs[c.retrievalID].Label == tms.In {
			return true
		}
	}
	return false
}

// keep justifies the retrievals of a turn and the context units of the
// evidence the model was given (its citations), each resting on the
// retrieval whose hit it was.
func (s *Session) keep(ctx context.Context, answers []recorded, cites []Citation) error {
	lim := s.opts.Limits.withDefaults()
	var evs []evidence
	for _, c := range cites {
		if !c.Current {
			continue
		}
		for _, a := range answers {
			i := slices.IndexFunc(a.ans.Hits, func(h planner.Hit) bool {
				return h.Path == c.Path && h.StartLine == c.StartLine && h.ContentHash == c.ContentHash
			})
			if i < 0 {
				continue
			}
			src, err := s.opts.Retriever.ReadSource(ctx, c.Path, c.ContentHash)
			if err != nil {
				break
			}
			evs = append(evs, excerpt(a.ans.Hits[i], src, lim.EvidenceLine))
			break
		}
	}
	return s.keepRetrieval(ctx, answers, evs)
}

// keepRetrieval justifies each answer and each piece of evidence found
// among an answer's hits (resting on that answer), and adds the new units.
func (s *Session) keepRetrieval(ctx context.Context, answers []recorded, evs []evidence) error {
	ids := make([]string, len(answers))
	for i, a := range answers {
		id, err := s.mem.JustifyRetrieval(ctx, s.scope, a.query, a.ans)
		if err != nil {
			return err
		}
		ids[i] = id
	}
	for _, ev := range evs {
		for i, a := range answers {
			if ids[i] == "" || !slices.ContainsFunc(a.ans.Hits, func(h planner.Hit) bool {
				return h.Path == ev.Path && h.StartLine == ev.StartLine && h.ContentHash == ev.ContentHash
			}) {
				continue
			}
			ref := ContextRef{Path: ev.Path, StartLine: ev.StartLine, EndLine: ev.EndLine, Symbol: ev.Symbol, ContentHash: ev.ContentHash}
			id, err := s.mem.JustifyContext(ctx, s.scope, ref, ids[i])
			if err != nil {
				return err
			}
			if j := slices.IndexFunc(s.units, func(c *carried) bool { return c.id == id }); j >= 0 {
				s.units[j].label = tms.In
			} else {
				s.units = append(s.units, &carried{ev: ev, id: id, retrievalID: ids[i], query: a.query, label: tms.In})
			}
			break
		}
	}
	if n := len(s.units) - MaxSessionUnits; n > 0 {
		s.units = slices.Delete(s.units, 0, n)
	}
	return nil
}
