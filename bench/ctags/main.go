// Command ctags measures rlm's definitions against Universal Ctags on real
// trees: for every language, the symbol R@1 of bare-name queries ("X") and
// of "where is X defined?" on the definitions ctags reports exactly once in
// the tree, and the extraction recall of every kind ctags reports.
//
// Usage:
//
//	apt-get install -y universal-ctags   # Universal Ctags 5.9
//	go run ./bench/ctags [-n 400] [-seed 1] [-v] ROOT...
//
// For each ROOT it lists the files with rlm's directory policy
// (sourcefacts.Lister: hidden, vendored, testdata, ignored and build
// directories are left out for both tools), runs
//
//	ctags --output-format=json --fields=+nKelE -L - -f -
//
// over all of them (ctags picks each file's language itself, by extension,
// shebang or mode line, with its default kinds), indexes the same ROOT with
// rlm (rlm.Open, a knowledge base in a temporary directory, BM25 only) and
// reads its facts (sourcefacts.Walk with the same policy).
//
// A ctags tag is a "unique definition" when no other tag of the tree has
// its name. For each ctags language, up to -n unique definitions of the
// kinds rlm reports (measuredKinds) are sampled (fixed seed) and asked as
// "NAME" and "where is NAME defined?"; a query scores when its first hit is
// a definition of NAME in the tag's file whose line range holds the tag's
// line. Extraction recall is the share of all tags of a kind for which rlm
// has a definition of that name whose range holds the line. ctags spells
// C++ operators "operator ==" and rlm "operator=="; names are compared
// with the space after "operator" removed.
//
// Output: one markdown table of R@1 per language, with the bare-name
// misses split by cause (rlm has no such definition at that line; the
// query parser, bridge.QueryFeatures, does not keep the name as an
// identifier, e.g. Ruby's `empty?` or C++'s `~Conn`; or the definition is
// found but ranked below another hit), then, per language, every ctags
// kind with its count and extraction recall (kinds rlm does not report
// marked "not reported"). -v lists every miss, -missing N up to N tags per
// kind that rlm did not extract.
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/rlm-dev/rlm"
	"github.com/rlm-dev/rlm/bridge"
	"github.com/rlm-dev/rlm/sourcefacts"
)

// measuredKinds are, per ctags language, the ctags kinds (long names) whose
// definitions rlm reports as symbols; docs/BENCHMARKS.md explains every
// other kind ctags reports.
var measuredKinds = map[string][]string{
	"C":          {"function", "macro", "struct", "typedef", "union", "enum", "member", "enumerator", "variable"},
	"C++":        {"function", "macro", "struct", "typedef", "union", "enum", "class", "namespace", "member", "enumerator", "variable"},
	"Go":         {"func", "methodSpec", "type", "interface", "struct", "const", "var", "member", "anonMember", "talias"},
	"Java":       {"class", "interface", "enum", "method", "annotation", "field", "enumConstant", "record"},
	"JavaScript": {"function", "class", "method", "generator", "constant", "variable", "getter", "setter"},
	"Python":     {"class", "function", "member", "variable"},
	"Ruby":       {"class", "module", "method", "singletonMethod", "alias", "constant", "accessor"},
	"Rust":       {"module", "struct", "interface", "enum", "typedef", "function", "method", "macro", "variable", "field", "enumerator"},
	"TypeScript": {"function", "class", "interface", "enum", "method", "namespace", "alias", "generator", "constant", "variable", "enumerator"},
}

// valueKinds are the ctags kinds of variables. ctags 5.9's JavaScript and
// TypeScript parsers report the variables of callbacks (`describe(...,
// () => { const x = ... })`) without a scope, as if module-level, and
// give no end lines to tell them by. A tag of these kinds whose line is
// indented (its pattern starts with white space) is taken to be a local
// variable, which rlm does not report, and is left out of the measurement
// (column "local, left out"). JavaScript's "class" kind also covers object
// literals held by such variables (`var opts = {...}`).
var valueKinds = map[string]bool{"variable": true, "constant": true, "class": true}

type tag struct {
	Type     string `json:"_type"`
	Name     string `json:"name"`
	Path     string `json:"path"`
	Language string `json:"language"`
	Line     int    `json:"line"`
	Kind     string `json:"kind"`
	Scope    string `json:"scope"`
	End      int    `json:"end"`
	Extras   string `json:"extras"`
	Pattern  string `json:"pattern"`
}

// local reports whether t is an indented variable (see valueKinds).
func local(t tag) bool {
	if !valueKinds[t.Kind] || (t.Language != "JavaScript" && t.Language != "TypeScript") {
		return false
	}
	if t.Kind == "class" && !objectLiteral.MatchString(t.Pattern) {
		return false
	}
	return strings.HasPrefix(t.Pattern, "/^ ") || strings.HasPrefix(t.Pattern, "/^\t")
}

// objectLiteral matches the ctags pattern of a JavaScript "class" that is
// an object literal held by a variable.
var objectLiteral = regexp.MustCompile(`^/\^\s*(var|let|const)\s+[\w$]+\s*=\s*\{`)

func main() {
	n := flag.Int("n", 400, "unique definitions sampled per language")
	seed := flag.Uint64("seed", 1, "sampling seed")
	ctagsBin := flag.String("ctags", "ctags", "Universal Ctags binary")
	verbose := flag.Bool("v", false, "list every miss")
	missing := flag.Int("missing", 0, "list up to this many tags per language and kind that rlm did not extract")
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: go run ./bench/ctags [-n 400] [-seed 1] [-v] ROOT...")
		os.Exit(2)
	}
	ctx := context.Background()
	var rows []string
	var details []string
	pool := map[string]*pooled{}
	for _, root := range flag.Args() {
		r, d, err := measure(ctx, root, *ctagsBin, *n, *seed, *verbose, *missing, pool)
		if err != nil {
			fmt.Fprintf(os.Stderr, "%s: %v\n", root, err)
			os.Exit(1)
		}
		rows = append(rows, r...)
		details = append(details, d)
	}
	fmt.Println("| tree | ctags language | files | ctags tags | local, left out | measured unique | ambiguous in rlm | sampled | R@1 bare name | R@1 where is X defined? | bare misses: not extracted / query drops the name / ranked below | extraction recall (measured kinds) |")
	fmt.Println("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|")
	for _, r := range rows {
		fmt.Println(r)
	}
	fmt.Println()
	fmt.Println("Per language, all trees pooled:")
	fmt.Println()
	fmt.Println("| ctags language | trees | sampled | R@1 bare name | R@1 where is X defined? | bare misses: not extracted / query drops the name / ranked below |")
	fmt.Println("|---|---:|---:|---:|---:|---|")
	langs := make([]string, 0, len(pool))
	for l := range pool {
		langs = append(langs, l)
	}
	sort.Strings(langs)
	for _, l := range langs {
		p := pool[l]
		fmt.Printf("| %s | %d | %d | %s | %s | %d / %d / %d |\n", l, p.trees, p.sampled, ratio(p.bare, p.sampled),
			ratio(p.where, p.sampled), p.cause[0], p.cause[1], p.cause[2])
	}
	fmt.Println()
	for _, d := range details {
		fmt.Print(d)
	}
}

// pooled sums one language's measurements over the trees.
type pooled struct {
	trees, sampled, bare, where int
	cause                       [3]int
}

// fact is one rlm definition as the benchmark compares it.
type fact struct {
	name, kind string
	start, end int
}

// loc is where an rlm definition is.
type loc struct {
	path       string
	start, end int
}

func (l loc) holds(t tag) bool { return l.path == t.Path && l.start <= t.Line && t.Line <= l.end }

// declaration reports whether an rlm symbol kind is a declaration without
// a definition (a prototype), which never makes a name ambiguous.
func declaration(kind string) bool {
	return kind == sourcefacts.KindPrototype || kind == sourcefacts.KindDeclaration
}

func measure(ctx context.Context, root, ctagsBin string, n int, seed uint64, verbose bool, missing int, pool map[string]*pooled) (rows []string, detail string, err error) {
	root, err = filepath.Abs(root)
	if err != nil {
		return nil, "", err
	}
	all, err := sourcefacts.Lister{Match: func(string) bool { return true }}.List(ctx, root)
	if err != nil {
		return nil, "", err
	}
	tags, err := runCtags(ctx, ctagsBin, root, all)
	if err != nil {
		return nil, "", err
	}

	t0 := time.Now()
	ffs, err := sourcefacts.Walk(ctx, root, sourcefacts.WalkOptions{IncludeGenerated: true})
	if err != nil {
		return nil, "", err
	}
	facts := map[string][]fact{}    // path -> definitions
	defsNamed := map[string][]loc{} // name -> rlm definitions (declarations left out)
	for _, ff := range ffs {
		for _, s := range ff.Symbols {
			facts[ff.Provenance.Path] = append(facts[ff.Provenance.Path], fact{name: s.Name, kind: s.Kind, start: s.Range.StartLine, end: s.Range.EndLine})
			if !declaration(s.Kind) {
				defsNamed[norm(s.Name)] = append(defsNamed[norm(s.Name)], loc{ff.Provenance.Path, s.Range.StartLine, s.Range.EndLine})
			}
		}
	}
	db, err := os.MkdirTemp("", "rlm-ctags-")
	if err != nil {
		return nil, "", err
	}
	defer os.RemoveAll(db)
	p, err := rlm.Open(ctx, root, rlm.Options{DBPath: filepath.Join(db, "kb.sqlite"), NoRefresh: true})
	if err != nil {
		return nil, "", err
	}
	defer p.Close()
	fmt.Fprintf(os.Stderr, "%s: %d files listed, %d ctags tags, rlm indexed in %s\n", root, len(all), len(tags), time.Since(t0).Round(time.Millisecond))

	count := map[string]int{}
	for _, t := range tags {
		count[norm(t.Name)]++
	}
	byLang := map[string][]tag{}
	files := map[string]map[string]bool{}
	for _, t := range tags {
		byLang[t.Language] = append(byLang[t.Language], t)
		if files[t.Language] == nil {
			files[t.Language] = map[string]bool{}
		}
		files[t.Language][t.Path] = true
	}
	langs := make([]string, 0, len(byLang))
	for l := range byLang {
		if measuredKinds[l] != nil {
			langs = append(langs, l)
		}
	}
	sort.Strings(langs)
	found := func(t tag) bool {
		name := norm(t.Name)
		for _, f := range facts[t.Path] {
			if norm(f.name) == name && f.start <= t.Line && t.Line <= f.end {
				return true
			}
		}
		return false
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "#### %s\n\n", root)
	for _, l := range langs {
		kinds := map[string][2]int{} // kind -> total, found
		var cands []tag
		measured, foundMeasured, ambiguous, locals := 0, 0, 0, 0
		for _, t := range byLang[l] {
			if local(t) {
				locals++
				continue
			}
			k := kinds[t.Kind]
			k[0]++
			ok := found(t)
			if ok {
				k[1]++
			} else if k[0]-k[1] <= missing {
				fmt.Fprintf(os.Stderr, "UNEXTRACTED %s %s %s:%d %s\n", l, t.Kind, t.Path, t.Line, t.Name)
			}
			kinds[t.Kind] = k
			if slices.Contains(measuredKinds[l], t.Kind) {
				measured++
				if ok {
					foundMeasured++
				}
				switch {
				case count[norm(t.Name)] != 1 || !usable(t.Name):
				case slices.ContainsFunc(defsNamed[norm(t.Name)], func(l loc) bool { return !l.holds(t) }):
					// rlm defines the name elsewhere too (a definition
					// ctags does not report): the query is ambiguous.
					ambiguous++
				default:
					cands = append(cands, t)
				}
			}
		}
		rng := rand.New(rand.NewPCG(seed, 0))
		rng.Shuffle(len(cands), func(i, j int) { cands[i], cands[j] = cands[j], cands[i] })
		sample := cands[:min(n, len(cands))]
		bare, where := 0, 0
		var cause [3]int // bare-name misses: not extracted, name lost by the query parser, ranked below
		for _, t := range sample {
			okBare, got1, err := ask(ctx, p, norm(t.Name), t)
			if err != nil {
				return nil, "", err
			}
			okWhere, got2, err := ask(ctx, p, "where is "+norm(t.Name)+" defined?", t)
			if err != nil {
				return nil, "", err
			}
			if okBare {
				bare++
			} else {
				switch {
				case !found(t):
					cause[0]++
				case !queryKeeps(norm(t.Name)):
					cause[1]++
				default:
					cause[2]++
				}
			}
			if okWhere {
				where++
			}
			if verbose && (!okBare || !okWhere) {
				fmt.Fprintf(os.Stderr, "MISS %s %s %s:%d %s (extracted %v) bare=%v [%s] where=%v [%s]\n",
					l, t.Kind, t.Path, t.Line, t.Name, found(t), okBare, got1, okWhere, got2)
			}
		}
		if len(sample) > 0 {
			p := pool[l]
			if p == nil {
				p = &pooled{}
				pool[l] = p
			}
			p.trees++
			p.sampled += len(sample)
			p.bare += bare
			p.where += where
			for i := range cause {
				p.cause[i] += cause[i]
			}
		}
		rows = append(rows, fmt.Sprintf("| %s | %s | %d | %d | %d | %d | %d | %d | %s | %s | %d / %d / %d | %s |", filepath.Base(root), l,
			len(files[l]), len(byLang[l]), locals, len(cands), ambiguous, len(sample), ratio(bare, len(sample)), ratio(where, len(sample)),
			cause[0], cause[1], cause[2], ratio(foundMeasured, measured)))
		fmt.Fprintf(&sb, "%s: ", l)
		ks := make([]string, 0, len(kinds))
		for k := range kinds {
			ks = append(ks, k)
		}
		sort.Slice(ks, func(i, j int) bool { return kinds[ks[i]][0] > kinds[ks[j]][0] })
		for i, k := range ks {
			if i > 0 {
				sb.WriteString(", ")
			}
			mark := ""
			if !slices.Contains(measuredKinds[l], k) {
				mark = " (not reported)"
			}
			fmt.Fprintf(&sb, "%s %d %s%s", k, kinds[k][0], ratio(kinds[k][1], kinds[k][0]), mark)
		}
		sb.WriteString("\n\n")
	}
	return rows, sb.String(), nil
}

// ask runs query and reports whether its first hit is the definition t,
// and what the first hit was.
func ask(ctx context.Context, p *rlm.Project, query string, t tag) (bool, string, error) {
	qctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	ans, err := p.Search(qctx, query, 1)
	if err != nil {
		return false, "", fmt.Errorf("search %q: %w", query, err)
	}
	if len(ans.Hits) == 0 {
		return false, "no hits", nil
	}
	h := ans.Hits[0]
	got := fmt.Sprintf("%s %s:%d-%d %s", h.Kind, h.Path, h.StartLine, h.EndLine, h.Qualified)
	return h.Path == t.Path && h.StartLine <= t.Line && t.Line <= h.EndLine && norm(h.Symbol) == norm(t.Name), got, nil
}

// queryKeeps reports whether the query parser (bridge.QueryFeatures)
// keeps name as an identifier of the bare-name query.
func queryKeeps(name string) bool {
	for _, id := range bridge.QueryFeatures(name).Idents {
		if id.Name == name {
			return true
		}
	}
	return false
}

// usable: names a developer would type as a query.
func usable(name string) bool {
	return name != "" && !strings.ContainsAny(name, " \t\n")
}

// norm removes the space ctags writes after "operator" in C++ operator
// names.
func norm(name string) string {
	if rest, ok := strings.CutPrefix(name, "operator "); ok {
		return "operator" + rest
	}
	return name
}

func ratio(a, b int) string {
	if b == 0 {
		return "–"
	}
	return fmt.Sprintf("%.3f", float64(a)/float64(b))
}

// runCtags tags files (relative to root) with ctags' default kinds and
// returns the tags of the languages measuredKinds names, anonymous ones
// left out.
func runCtags(ctx context.Context, bin, root string, files []string) ([]tag, error) {
	langs := make([]string, 0, len(measuredKinds))
	for l := range measuredKinds {
		langs = append(langs, l)
	}
	sort.Strings(langs)
	cmd := exec.CommandContext(ctx, bin, "--output-format=json", "--fields=+nKelE", "-L", "-", "-f", "-")
	cmd.Dir = root
	cmd.Stdin = strings.NewReader(strings.Join(files, "\n") + "\n")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("ctags: %w: %s", err, stderr.String())
	}
	var tags []tag
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		var t tag
		if err := json.Unmarshal(sc.Bytes(), &t); err != nil {
			return nil, fmt.Errorf("ctags output: %w", err)
		}
		t.Path = strings.TrimPrefix(filepath.ToSlash(t.Path), "./")
		// Anonymous entities get generated names no one asks for.
		if t.Type != "tag" || !slices.Contains(langs, t.Language) || strings.Contains(t.Extras, "anonymous") {
			continue
		}
		tags = append(tags, t)
	}
	return tags, sc.Err()
}
