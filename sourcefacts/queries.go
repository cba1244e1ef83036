package sourcefacts

import (
	"embed"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	ts "github.com/tree-sitter/go-tree-sitter"
)

// queryFS holds the query files: each grammar's own tags query (and Ruby's
// locals query), verbatim, and rlm's small extra queries. See
// queries/README.md for their origins.
//
//go:embed queries/*.scm
var queryFS embed.FS

// captureRole is what a capture name means to the extractor.
type captureRole uint8

const (
	capIgnored       captureRole = iota
	capName                      // @name
	capDoc                       // @doc
	capDefinition                // @definition.<kind>
	capReference                 // @reference.<kind>
	capPackageName               // @package.name
	capImport                    // @import
	capImportPath                // @import.path
	capImportAlias               // @import.alias
	capReceiver                  // @receiver: operand of a selector call or type qualifier
	capReceiverName              // @receiver.name: the selected name it goes with
	capComment                   // @comment
	capCommentSkip               // @comment.skip: may sit in a doc comment run (Rust attributes)
	capImportModule              // @import.module: Python's `from` module
	capImportKind                // @import.kind: Ruby's require/require_relative/load
	capDefReceiver               // the class of an out-of-class C++ method (cpp's @local.scope)
	capOwner                     // @owner: a region whose functions are methods (Rust impl)
	capOwnerName                 // @owner.name: the type they are methods of
	capLocalScope                // locals.scm's @local.scope (Ruby)
	capLocalDef                  // locals.scm's @local.definition (Ruby)
	capDeclarator                // @declarator: a C/C++ declarator whose name the grammar's declarator hook finds
	capSetter                    // @setter: the reference is a call of the setter NAME= (Ruby `x.name = v`)
	capBindingName               // @binding.name: a name a declaration binds inside its scope (a parameter, a variable)
	capBindingType               // @binding.type: the type the declaration shows for it
	capBindingScope              // @binding.scope: a region bindings are local to (a function, a block)
	capBindingImport             // @binding.import: a name an import binds (alias, default name, imported member)
	capBindingModule             // @binding.module: the module or package that import binds it to
	capBindingMember             // @binding.member: the member of that module it names (Python `from m import f`, JS `{f}`)
	capBindingInit               // @binding.init: the expression a binding without a written type is initialised with
	capTypeOf                    // @type.of: a definition's name whose declaration writes a type (Symbol.Type)
	capTypeIs                    // @type.is: that type
	capRoleTest                  // @role.test: an attribute whose item is test code (Rust #[cfg(test)], #[test])
)

type captureInfo struct {
	role captureRole
	kind string // the <kind> of @definition.<kind> / @reference.<kind>
}

// patternInfo is what the extractor knows about one pattern of the compiled
// query, including the tags predicates the Go binding leaves to the caller.
type patternInfo struct {
	file  string         // which query file the pattern came from
	strip *regexp.Regexp // #strip! @doc "<regex>": removed from each doc comment
	// notLocal: #is-not? local — the captured name is not a reference
	// when it is a local variable (locals.scm's scopes decide).
	notLocal bool
	// noInherit: #set! local.scope-inherits false — the captured scope
	// does not see its parent's locals.
	noInherit bool
	// bindingName: #set! binding.name "this" — the pattern binds this
	// name (a keyword with no node of its own: this, self, Self).
	bindingName string
	// bindingResult: #set! binding.result "1" — the binding is that
	// result of its initialising call (`_, b := f()`).
	bindingResult int
	// bindingElement: #set! binding.element "true" — the binding is an
	// element of its initialiser's value (a range's value).
	bindingElement bool
	// base: #set! reference.base "true" — the reference is a base its
	// class names (a superclass), resolved like a type (resolveBase).
	base bool
}

// compiledQuery is the tags query and the extra query compiled together into
// one ts.Query, so that one cursor pass over the tree serves both.
type compiledQuery struct {
	q        *ts.Query
	captures []captureInfo
	patterns []patternInfo
}

// compileQueries compiles the named query files (in order) as one query for
// the grammar spec. Patterns that capture nothing the extractor uses are
// disabled: in tags files those with neither a @definition.* nor a
// @reference.* capture (the tags convention gives them no role, and the
// extra file covers what they would say), in locals files the
// @local.reference patterns.
func compileQueries(lang *ts.Language, spec *grammarSpec, names ...string) (*compiledQuery, error) {
	type span struct {
		name       string
		start, end int // byte offsets in the combined source
		firstRow   int // 0-based row of start in the combined source
		rows       int // rows in the span
	}
	var (
		sb    strings.Builder
		spans []span
		rows  int
	)
	for _, name := range names {
		b, err := queryFS.ReadFile("queries/" + name)
		if err != nil {
			return nil, fmt.Errorf("sourcefacts: read query %s: %w", name, err)
		}
		start := sb.Len()
		sb.Write(b)
		if len(b) == 0 || b[len(b)-1] != '\n' {
			sb.WriteByte('\n')
		}
		n := strings.Count(sb.String()[start:], "\n")
		spans = append(spans, span{name: name, start: start, end: sb.Len(), firstRow: rows, rows: n})
		rows += n
	}
	q, qerr := ts.NewQuery(lang, sb.String())
	if qerr != nil {
		where := "queries"
		for _, s := range spans {
			if r := int(qerr.Row); r >= s.firstRow && r < s.firstRow+s.rows {
				where = fmt.Sprintf("%s line %d", s.name, r-s.firstRow+1)
				break
			}
		}
		return nil, fmt.Errorf("sourcefacts: compile %s: %s", where, qerr.Message)
	}

	cq := &compiledQuery{q: q}
	for _, name := range q.CaptureNames() {
		ci := parseCaptureName(name)
		if r, ok := spec.roles[name]; ok {
			ci = captureInfo{role: r}
		}
		cq.captures = append(cq.captures, ci)
	}
	n := q.PatternCount()
	cq.patterns = make([]patternInfo, n)
	for i := uint(0); i < n; i++ {
		pi := &cq.patterns[i]
		off := int(q.StartByteForPattern(i))
		for _, s := range spans {
			if off >= s.start && off < s.end {
				pi.file = s.name
			}
		}
		hasRole := false
		for ci, qn := range q.CaptureQuantifiers(i) {
			if qn == ts.CaptureQuantifierZero {
				continue
			}
			switch cq.captures[ci].role {
			case capDefinition, capReference, capPackageName, capImport, capReceiver, capComment,
				capCommentSkip, capOwner, capLocalScope, capLocalDef, capRoleTest, capBindingName, capBindingType, capBindingScope,
				capBindingImport, capTypeOf:
				hasRole = true
			}
		}
		if !hasRole {
			q.DisablePattern(i)
			continue
		}
		for _, p := range q.PropertyPredicates(i) {
			if p.Property.Key == "local" && !p.Positive {
				pi.notLocal = true
			}
		}
		for _, p := range q.PropertySettings(i) {
			if p.Key == "local.scope-inherits" && p.Value != nil && *p.Value == "false" {
				pi.noInherit = true
			}
			if p.Key == "binding.name" && p.Value != nil {
				pi.bindingName = *p.Value
			}
			if p.Key == "binding.result" && p.Value != nil {
				pi.bindingResult, _ = strconv.Atoi(*p.Value)
			}
			if p.Key == "binding.element" {
				pi.bindingElement = true
			}
			if p.Key == "reference.base" {
				pi.base = true
			}
		}
		for _, p := range q.GeneralPredicates(i) {
			switch p.Operator {
			case "strip!":
				if len(p.Args) == 2 && p.Args[0].CaptureId != nil && p.Args[1].String != nil &&
					cq.captures[*p.Args[0].CaptureId].role == capDoc {
					re, err := regexp.Compile(*p.Args[1].String)
					if err != nil {
						q.Close()
						return nil, fmt.Errorf("sourcefacts: %s pattern %d: #strip! regex: %w", pi.file, i, err)
					}
					pi.strip = re
				}
			}
		}
	}
	// @doc is not recorded. tree-sitter 0.25's query cursor compares the
	// capture lists of competing in-progress matches on every step, so
	// recording `(comment)* @doc` costs time quadratic in the length of a
	// run of comments (40,000 comment lines before one function: 11 s with
	// the capture, 11 ms without). Doc comments are found from the tree
	// instead, by the same adjacency rule (#set-adjacent!), and each
	// pattern's #strip! regex is still applied.
	if _, ok := q.CaptureIndexForName("doc"); ok {
		q.DisableCapture("doc")
	}
	return cq, nil
}

func parseCaptureName(name string) captureInfo {
	switch {
	case name == "name":
		return captureInfo{role: capName}
	case name == "doc":
		return captureInfo{role: capDoc}
	case name == "package.name":
		return captureInfo{role: capPackageName}
	case name == "import":
		return captureInfo{role: capImport}
	case name == "import.path":
		return captureInfo{role: capImportPath}
	case name == "import.alias":
		return captureInfo{role: capImportAlias}
	case name == "receiver":
		return captureInfo{role: capReceiver}
	case name == "receiver.name":
		return captureInfo{role: capReceiverName}
	case name == "comment":
		return captureInfo{role: capComment}
	case name == "comment.skip":
		return captureInfo{role: capCommentSkip}
	case name == "import.module":
		return captureInfo{role: capImportModule}
	case name == "import.kind":
		return captureInfo{role: capImportKind}
	case name == "owner":
		return captureInfo{role: capOwner}
	case name == "owner.name":
		return captureInfo{role: capOwnerName}
	case name == "declarator":
		return captureInfo{role: capDeclarator}
	case name == "setter":
		return captureInfo{role: capSetter}
	case name == "role.test":
		return captureInfo{role: capRoleTest}
	case name == "binding.name":
		return captureInfo{role: capBindingName}
	case name == "binding.type":
		return captureInfo{role: capBindingType}
	case name == "binding.scope":
		return captureInfo{role: capBindingScope}
	case name == "binding.import":
		return captureInfo{role: capBindingImport}
	case name == "binding.module":
		return captureInfo{role: capBindingModule}
	case name == "binding.member":
		return captureInfo{role: capBindingMember}
	case name == "binding.init":
		return captureInfo{role: capBindingInit}
	case name == "type.of":
		return captureInfo{role: capTypeOf}
	case name == "type.is":
		return captureInfo{role: capTypeIs}
	case strings.HasPrefix(name, "definition."):
		return captureInfo{role: capDefinition, kind: strings.TrimPrefix(name, "definition.")}
	case strings.HasPrefix(name, "reference."):
		return captureInfo{role: capReference, kind: strings.TrimPrefix(name, "reference.")}
	}
	return captureInfo{role: capIgnored}
}
