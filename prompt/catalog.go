package prompt

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"unicode"

	"github.com/rlm-dev/rlm/internal/stopwords"
	"github.com/rlm-dev/rlm/internal/textclip"
	"github.com/rlm-dev/rlm/retrieval"
	"github.com/rlm-dev/rlm/retrieval/embedded"
	"golang.org/x/sync/errgroup"
)

// ErrReleased is returned by Compile and Why for a catalog whose candidate
// index was released.
var ErrReleased = errors.New("prompt: catalog released")

// MaxUnits bounds the units of one catalog.
const MaxUnits = 100_000

// CatalogOptions configure NewCatalog and LoadCatalog.
type CatalogOptions struct {
	// Model chooses the tokenizer encoding the units' token costs are
	// counted with when the catalog is built (EncodingFor). A compile for
	// a model of another encoding counts them again, once, on first use.
	Model string
	// Extra units join the catalog's own (e.g. loop.BuiltinUnits: the
	// completion loop's built-in tools, for a catalog read from a file).
	// A catalog tool unit with an Extra tool unit's id keeps its own title,
	// description, keywords, activation, relations and priority but takes
	// the Extra unit's kind and schema: the schema the executor checks
	// calls against is the only one the model is shown. A catalog unit
	// with an Extra unit's id whose kind is a tool while the other's is
	// not (or the reverse) is a problem of the catalog: it would hide the
	// Extra unit (a built-in tool the model could then never call).
	Extra []Unit
}

// Catalog is a validated, immutable set of prompt units with a candidate
// index: an in-memory retrieval/embedded backend holding one
// retrieval.Document per unit (id and title in the name column, keywords
// in the signature column, the description in the doc column), searched
// with BM25. The index is the resource Release frees; the units stay
// readable. Safe for concurrent use.
type Catalog struct {
	units    []Unit
	byID     map[string]int
	contents []content
	always   []int            // units with activation always
	mandate  []int            // mandatory units: candidates of every compile
	tools    []int            // tool and mcp_tool units
	words    map[string][]int // lower-cased keyword or capability -> units naming it
	triggers map[string][]int // trigger signal -> units
	enc      Encoding

	costMu sync.Mutex
	costs  map[Encoding][]int // tokens of each unit's content, per encoding

	mu    sync.RWMutex // held for reading by every index search, for writing by Release
	index *embedded.Backend
}

// NewCatalog validates units (see Unit for the rules; every unit a
// relation names must be in units; no id may start with ReservedPrefix),
// counts each unit's tokens and builds the candidate index. The units are
// copied; a unit without a Source gets "units[I]", its index in units
// followed by opts.Extra. Errors: a *CatalogError listing every invalid
// unit with its Source, field and reason, in unit order (matching
// ErrReservedID for a reserved id); an error of the index.
func NewCatalog(ctx context.Context, units []Unit, opts CatalogOptions) (*Catalog, error) {
	c, problems := prepare(units, opts)
	if len(problems) > 0 {
		slices.SortStableFunc(problems, func(a, b problem) int { return a.unit - b.unit })
		return nil, &CatalogError{Problems: unitProblems(problems)}
	}
	if err := c.build(ctx); err != nil {
		return nil, err
	}
	return c, nil
}

// problem is a UnitProblem with the index of its unit (-1 for none), for
// sorting and for finding the unit's lines in a catalog file.
type problem struct {
	unit int
	UnitProblem
}

func unitProblems(ps []problem) []UnitProblem {
	out := make([]UnitProblem, len(ps))
	for i, p := range ps {
		out[i] = p.UnitProblem
	}
	return out
}

// prepare validates units and opts.Extra (the ones whose ids units do not
// take) into a catalog without contents or index, or returns every
// problem found.
func prepare(units []Unit, opts CatalogOptions) (*Catalog, []problem) {
	var clashes []problem // catalog units hiding an Extra unit of another kind
	if len(opts.Extra) > 0 {
		at := make(map[string]int, len(units))
		for i, u := range units {
			at[u.ID] = i
		}
		units = append([]Unit(nil), units...)
		for _, u := range opts.Extra {
			i, ok := at[u.ID]
			switch {
			case !ok:
				units = append(units, u)
			case units[i].Kind.IsTool() && u.Kind.IsTool():
				units[i].Kind, units[i].Schema = u.Kind, u.Schema
			case units[i].Kind.IsTool() != u.Kind.IsTool():
				source := units[i].Source
				if source == "" {
					source = fmt.Sprintf("units[%d]", i)
				}
				from := u.Source
				if from == "" {
					from = "the host"
				}
				clashes = append(clashes, problem{unit: i, UnitProblem: UnitProblem{Source: source, ID: units[i].ID, Field: "kind",
					Reason: fmt.Sprintf("the id belongs to a unit of kind %s added by %s, which this unit of kind %s would hide: rename it (only a tool unit may redescribe a tool of its id)",
						u.Kind, from, units[i].Kind)}})
			}
		}
	}
	if len(units) > MaxUnits {
		return nil, []problem{{unit: -1, UnitProblem: UnitProblem{Reason: fmt.Sprintf("%d units, over the limit of %d", len(units), MaxUnits)}}}
	}
	c := &Catalog{
		units:    make([]Unit, len(units)),
		byID:     make(map[string]int, len(units)),
		contents: make([]content, len(units)),
		words:    map[string][]int{},
		triggers: map[string][]int{},
		enc:      EncodingFor(opts.Model),
		costs:    map[Encoding][]int{},
	}
	problems := clashes
	add := func(i int, u *Unit, field, reason string, err error) {
		problems = append(problems, problem{unit: i, UnitProblem: UnitProblem{Source: u.Source, ID: u.ID, Field: field, Reason: reason, Err: err}})
	}
	// Each unit is checked on its own (its schema against the meta-schema:
	// most of a large catalog's load), on every core; the problems are
	// gathered in unit order after.
	own := make([][]problem, len(units))
	forEach(len(units), func(i int) {
		u := cloneUnit(units[i])
		if u.Source == "" {
			u.Source = fmt.Sprintf("units[%d]", i)
		}
		var ps []problem
		at := func(field, reason string, err error) {
			ps = append(ps, problem{unit: i, UnitProblem: UnitProblem{Source: u.Source, ID: u.ID, Field: field, Reason: reason, Err: err}})
		}
		for _, p := range normalize(&u) {
			at(p.field, p.reason, nil)
		}
		if strings.HasPrefix(u.ID, ReservedPrefix) {
			at("id", fmt.Sprintf("the id prefix %q is reserved for the units the harness adds to one compile", ReservedPrefix), ErrReservedID)
		}
		c.units[i], own[i] = u, ps
	})
	for i := range c.units {
		u := &c.units[i]
		problems = append(problems, own[i]...)
		if j, dup := c.byID[u.ID]; dup && u.ID != "" {
			add(i, u, "id", "duplicate id (first at "+c.units[j].Source+")", nil)
		} else {
			c.byID[u.ID] = i
		}
	}
	for i := range c.units {
		for _, p := range c.checkLinks(&c.units[i]) {
			problems = append(problems, problem{unit: i, UnitProblem: p})
		}
	}
	if len(problems) > 0 {
		return nil, problems
	}
	return c, nil
}

// build renders and counts the prepared units and builds the candidate
// index.
func (c *Catalog) build(ctx context.Context) error {
	errs := make([]error, len(c.units))
	forEach(len(c.units), func(i int) {
		c.contents[i], errs[i] = contentOf(&c.units[i])
	})
	for i := range c.units {
		u := &c.units[i]
		if err := errs[i]; err != nil {
			return fmt.Errorf("prompt: unit %q: %w", clipID(u.ID), err)
		}
		if u.Activation == ActivationAlways {
			c.always = append(c.always, i)
		}
		if u.Mandatory {
			c.mandate = append(c.mandate, i)
		}
		if u.Kind.IsTool() {
			c.tools = append(c.tools, i)
		}
		for _, w := range append(slices.Clone(u.Keywords), u.Capabilities...) {
			k := strings.ToLower(w)
			if !slices.Contains(c.words[k], i) {
				c.words[k] = append(c.words[k], i)
			}
		}
		for _, t := range u.Triggers {
			if !slices.Contains(c.triggers[t], i) {
				c.triggers[t] = append(c.triggers[t], i)
			}
		}
	}
	if _, err := c.unitCosts(c.enc); err != nil {
		return err
	}
	return c.buildIndex(ctx)
}

func cloneUnit(u Unit) Unit {
	u.Keywords = slices.Clone(u.Keywords)
	u.Schema = slices.Clone(u.Schema)
	u.Requires = slices.Clone(u.Requires)
	u.Suggests = slices.Clone(u.Suggests)
	u.Conflicts = slices.Clone(u.Conflicts)
	u.Supersedes = slices.Clone(u.Supersedes)
	u.Capabilities = slices.Clone(u.Capabilities)
	u.Triggers = slices.Clone(u.Triggers)
	return u
}

// checkLinks reports relations of u that name no unit of the catalog, or
// u itself.
func (c *Catalog) checkLinks(u *Unit) []UnitProblem {
	var out []UnitProblem
	for _, l := range links(u) {
		for _, id := range l.ids {
			switch _, ok := c.byID[id]; {
			case id == u.ID:
				out = append(out, UnitProblem{Source: u.Source, ID: u.ID, Field: l.field, Reason: fmt.Sprintf("%s names the unit itself", l.field)})
			case !ok:
				out = append(out, UnitProblem{Source: u.Source, ID: u.ID, Field: l.field, Reason: fmt.Sprintf("%s %q: no such unit in the catalog", l.field, clipID(id))})
			}
		}
	}
	return out
}

// buildIndex stores one retrieval.Document per unit in a private
// in-memory embedded backend.
func (c *Catalog) buildIndex(ctx context.Context) error {
	docs := c.indexDocuments()
	key, keep := indexImageKey(docs)
	if img, ok := indexImages.get(key, keep); ok {
		b, err := embedded.Open(ctx, ":memory:", embedded.WithQueryStopwords(stopwords.Glue), embedded.WithImage(img))
		if err == nil {
			c.index = b
			return nil
		}
		// Built the usual way below.
	}
	b, err := embedded.Open(ctx, ":memory:", embedded.WithQueryStopwords(stopwords.Glue))
	if err != nil {
		return fmt.Errorf("prompt: candidate index: %w", err)
	}
	if err := b.Upsert(ctx, docs); err != nil {
		b.Close()
		return fmt.Errorf("prompt: candidate index: %w", err)
	}
	if err := b.OptimizeText(ctx); err != nil {
		b.Close()
		return fmt.Errorf("prompt: candidate index: %w", err)
	}
	if keep {
		if img, err := b.Image(ctx); err == nil {
			indexImages.put(key, img)
		}
	}
	c.index = b
	return nil
}

// indexDocuments are the candidate index's documents, one per unit.
func (c *Catalog) indexDocuments() []retrieval.Document {
	docs := make([]retrieval.Document, len(c.units))
	for i, u := range c.units {
		docs[i] = retrieval.Document{
			ID:        u.ID,
			Symbol:    u.ID,
			Qualified: u.Title,
			Kind:      string(u.Kind),
			Signature: strings.Join(u.Keywords, " ") + otherNumberForms(strings.Join(u.Keywords, " ")+" "+u.Title),
			Doc:       u.Description + otherNumberForms(u.Description),
		}
	}
	return docs
}

// Units returns a copy of the catalog's units, in catalog order, with
// defaults filled in and schemas in canonical form.
func (c *Catalog) Units() []Unit {
	out := make([]Unit, len(c.units))
	for i, u := range c.units {
		out[i] = cloneUnit(u)
	}
	return out
}

// Len returns the number of units.
func (c *Catalog) Len() int { return len(c.units) }

// Lookup returns a copy of the unit with this id.
func (c *Catalog) Lookup(id string) (Unit, bool) {
	i, ok := c.byID[id]
	if !ok {
		return Unit{}, false
	}
	return cloneUnit(c.units[i]), true
}

// Encoding returns the encoding the catalog counted its units with.
func (c *Catalog) Encoding() Encoding { return c.enc }

// Release frees the candidate index. It is idempotent and waits for
// searches in progress; afterwards Compile and Why fail with ErrReleased
// while Units and Lookup keep working.
func (c *Catalog) Release() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.index == nil {
		return nil
	}
	err := c.index.Close()
	c.index = nil
	if err != nil {
		return fmt.Errorf("prompt: release catalog: %w", err)
	}
	return nil
}

// Released reports whether Release was called.
func (c *Catalog) Released() bool {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.index == nil
}

// unitCosts returns the tokens of every unit's content in encoding enc,
// counting them on first use.
func (c *Catalog) unitCosts(enc Encoding) ([]int, error) {
	c.costMu.Lock()
	defer c.costMu.Unlock()
	if cs, ok := c.costs[enc]; ok {
		return cs, nil
	}
	cs := make([]int, len(c.units))
	errs := make([]error, len(c.units))
	forEach(len(c.contents), func(i int) {
		cs[i], errs[i] = countTokens(enc, c.contents[i].text)
	})
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	c.costs[enc] = cs
	return cs, nil
}

// lexHit is one BM25 match of a task among the units.
type lexHit struct {
	unit    int // catalog index
	rank    int // 1-based
	percent int // score as a whole percentage of the best score
}

// lexical returns the BM25 matches of text among the units, best first,
// at most limit of them. Text over retrieval.MaxQueryBytes is searched by
// its first MaxQueryBytes bytes.
func (c *Catalog) lexical(ctx context.Context, text string, limit int) ([]lexHit, error) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	if c.index == nil {
		return nil, ErrReleased
	}
	text = textclip.Prefix(text, retrieval.MaxQueryBytes)
	if strings.TrimSpace(text) == "" || limit <= 0 {
		return nil, nil
	}
	hits, err := c.index.LexicalRanking(ctx, retrieval.Request{Strategy: retrieval.Lexical, Text: text, Limit: min(limit, retrieval.MaxLimit)})
	if err != nil {
		return nil, fmt.Errorf("prompt: candidate search: %w", err)
	}
	out := make([]lexHit, 0, len(hits))
	best := 0.0
	if len(hits) > 0 {
		best = hits[0].Score
	}
	for i, h := range hits {
		idx, ok := c.byID[h.ID]
		if !ok {
			continue
		}
		out = append(out, lexHit{unit: idx, rank: i + 1, percent: retrieval.PercentOfBest(h.Score, best)})
	}
	return out, nil
}

// checkUsable returns ErrReleased once the catalog is released.
func (c *Catalog) checkUsable() error {
	if c.Released() {
		return ErrReleased
	}
	return nil
}

// otherNumberForms returns, each after a space, the other grammatical
// number of each plain lowercase English word of text ("deal" → "deals",
// "entries" → "entry"): indexed with a unit's keywords, title and
// description, they let a task that names a thing in the plural find a
// unit that names it in the singular and back (the candidate search is
// BM25 over words, without stemming); the task's own words are searched
// as written. Words with capitals, digits or underscores (identifiers) are
// left alone.
func otherNumberForms(text string) string {
	var extra []string
	for _, w := range strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) && r != '_' && !unicode.IsDigit(r) }) {
		if len(w) < 4 || strings.ToLower(w) != w || strings.ContainsAny(w, "_0123456789") {
			continue
		}
		switch {
		case strings.HasSuffix(w, "ies"):
			extra = append(extra, w[:len(w)-3]+"y")
		case strings.HasSuffix(w, "sses"), strings.HasSuffix(w, "ches"), strings.HasSuffix(w, "shes"), strings.HasSuffix(w, "xes"):
			extra = append(extra, w[:len(w)-2])
		case strings.HasSuffix(w, "ss"), strings.HasSuffix(w, "us"), strings.HasSuffix(w, "is"):
			extra = append(extra, w+"es")
		case strings.HasSuffix(w, "s"):
			extra = append(extra, w[:len(w)-1])
		case strings.HasSuffix(w, "y") && !strings.ContainsRune("aeiou", rune(w[len(w)-2])):
			extra = append(extra, w[:len(w)-1]+"ies")
		default:
			extra = append(extra, w+"s")
		}
	}
	if len(extra) == 0 {
		return ""
	}
	return " " + strings.Join(extra, " ")
}

// forEach calls f(0) ... f(n-1) in chunks of forEachChunk indexes, at
// most GOMAXPROCS chunks at a time (golang.org/x/sync/errgroup), and
// returns when every call has; f must write only what index i owns.
func forEach(n int, f func(i int)) {
	var g errgroup.Group
	g.SetLimit(runtime.GOMAXPROCS(0))
	for lo := 0; lo < n; lo += forEachChunk {
		g.Go(func() error {
			for i := lo; i < min(lo+forEachChunk, n); i++ {
				f(i)
			}
			return nil
		})
	}
	_ = g.Wait() // the chunks return no error
}

// forEachChunk is how many indexes a goroutine of forEach takes at once.
const forEachChunk = 64
