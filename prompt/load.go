package prompt

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"strconv"

	"go.yaml.in/yaml/v3"
)

// MaxCatalogFileBytes bounds a catalog file.
const MaxCatalogFileBytes = 64 << 20

// A catalog file (docs/prompt-compiler.md) is YAML or JSON (JSON is read
// as YAML):
//
//	version: 1          # optional
//	units:
//	  - id: git_diff
//	    kind: tool
//	    ...
//
// Each unit is a mapping of the fields of Unit in snake_case, the schema
// written as YAML or JSON. Unknown fields are errors.

// yamlLine finds the line in a go-yaml syntax error ("yaml: line 12: ...").
var yamlLine = regexp.MustCompile(`^(?:yaml: )?line (\d+): (.*)$`)

// LoadCatalog reads a catalog file (YAML or JSON, parsed with
// go.yaml.in/yaml/v3) and builds the catalog with NewCatalog. Each unit's
// Source is "PATH:LINE" of its entry. Errors: a *CatalogError (Path set)
// listing every problem of the file at PATH:LINE (UnitProblem.Line), in
// line order: a syntax error (which stops the reading), else every unknown
// field, every value of the wrong type, and every invalid unit at the line
// of the offending field (unknown kind, duplicate id, a relation naming no
// unit, a bad schema, a reserved id, ...); the file system's error,
// wrapped.
func LoadCatalog(ctx context.Context, path string, opts CatalogOptions) (*Catalog, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("prompt: catalog: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxCatalogFileBytes+1))
	if err != nil {
		return nil, fmt.Errorf("prompt: catalog %s: %w", path, err)
	}
	if len(data) > MaxCatalogFileBytes {
		return nil, &CatalogError{Path: path, Problems: []UnitProblem{{Source: path, Reason: fmt.Sprintf("over %d bytes", MaxCatalogFileBytes)}}}
	}
	r := &fileReader{path: path}
	units := r.read(data)
	if r.syntax {
		return nil, &CatalogError{Path: path, Problems: unitProblems(r.problems)}
	}
	c, found := prepare(units, opts)
	bad := map[fieldAt]bool{}
	for _, p := range r.problems {
		bad[fieldAt{p.unit, p.Field}] = true
	}
	problems := r.problems
	for _, p := range found {
		if p.unit < 0 || p.unit >= len(r.fields) {
			if p.Source == "" {
				p.Source = path
			}
			problems = append(problems, p) // the catalog as a whole, or an Extra unit
			continue
		}
		if bad[fieldAt{p.unit, p.Field}] {
			continue // the value was not read: its problem is said already
		}
		if line, ok := r.fields[p.unit][p.Field]; ok && p.Field != "" {
			p.Line = line
		} else {
			p.Line = r.lines[p.unit]
		}
		p.Source = fmt.Sprintf("%s:%d", path, p.Line)
		problems = append(problems, p)
	}
	if len(problems) > 0 {
		slices.SortStableFunc(problems, func(a, b problem) int { return cmp.Compare(a.Line, b.Line) })
		return nil, &CatalogError{Path: path, Problems: unitProblems(problems)}
	}
	if err := c.build(ctx); err != nil {
		return nil, err
	}
	return c, nil
}

// fieldAt names one field of one unit (by index).
type fieldAt struct {
	unit  int
	field string
}

// fileReader reads the units of a catalog file, collecting every problem.
type fileReader struct {
	path     string
	problems []problem
	syntax   bool             // a syntax error: nothing else was read
	lines    []int            // per unit: the line of its entry
	fields   []map[string]int // per unit: the line of each field's value
}

func (r *fileReader) add(unit, line int, id, field, format string, args ...any) {
	r.problems = append(r.problems, problem{unit: unit, UnitProblem: UnitProblem{Source: fmt.Sprintf("%s:%d", r.path, line), Line: line,
		ID: id, Field: field, Reason: fmt.Sprintf(format, args...)}})
}

// read parses data and decodes every unit it can, field by field.
func (r *fileReader) read(data []byte) []Unit {
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		r.syntax = true
		line, msg := 0, err.Error()
		if sm := yamlLine.FindStringSubmatch(msg); sm != nil {
			line, _ = strconv.Atoi(sm[1])
			msg = sm[2]
		}
		r.problems = append(r.problems, problem{unit: -1, UnitProblem: UnitProblem{Source: r.path, Line: line, Reason: msg}})
		if line > 0 {
			r.problems[0].Source = fmt.Sprintf("%s:%d", r.path, line)
		}
		return nil
	}
	if root.Kind == 0 {
		return nil // an empty file: no units
	}
	doc := resolve(root.Content[0])
	if doc.Kind != yaml.MappingNode {
		r.add(-1, doc.Line, "", "", "a catalog is a mapping with the keys version and units, got %s", describe(doc))
		return nil
	}
	var units []Unit
	keys := map[string]int{}
	for k := 0; k+1 < len(doc.Content); k += 2 {
		key, val := doc.Content[k], doc.Content[k+1]
		if first, dup := keys[key.Value]; dup {
			r.add(-1, key.Line, "", "", "field %q is given twice (first at line %d)", clipID(key.Value), first)
			continue
		}
		keys[key.Value] = key.Line
		switch key.Value {
		case "version":
			var v int
			if r.integer(-1, "", "version", val, &v) && v != 0 && v != 1 {
				r.add(-1, val.Line, "", "version", "version %d: this rlm reads version 1", v)
			}
		case "units":
			units = r.units(val)
		default:
			r.add(-1, key.Line, "", "", "unknown field %q (a catalog has version and units)", clipID(key.Value))
		}
	}
	return units
}

// units decodes the units list.
func (r *fileReader) units(seq *yaml.Node) []Unit {
	seq = resolve(seq)
	if isNull(seq) {
		return nil
	}
	if seq.Kind != yaml.SequenceNode {
		r.add(-1, seq.Line, "", "units", "units: want a list of units, got %s", describe(seq))
		return nil
	}
	var units []Unit
	for _, entry := range seq.Content {
		i := len(units)
		e := resolve(entry)
		if e.Kind != yaml.MappingNode {
			r.add(-1, e.Line, "", "", "a unit is a mapping of its fields (id, kind, ...), got %s", describe(e))
			continue
		}
		u := Unit{Source: fmt.Sprintf("%s:%d", r.path, entry.Line)}
		fields := map[string]int{}
		r.lines = append(r.lines, entry.Line)
		r.fields = append(r.fields, fields)
		// The id first, so that every problem of the unit names it.
		for k := 0; k+1 < len(e.Content); k += 2 {
			if e.Content[k].Value == "id" {
				r.text(i, "", "id", e.Content[k+1], &u.ID)
			}
		}
		keys := map[string]int{}
		for k := 0; k+1 < len(e.Content); k += 2 {
			key, val := e.Content[k], e.Content[k+1]
			if first, dup := keys[key.Value]; dup {
				r.add(i, key.Line, u.ID, "", "field %q is given twice (first at line %d)", clipID(key.Value), first)
				continue
			}
			keys[key.Value] = key.Line
			fields[key.Value] = val.Line
			r.field(i, &u, key, val)
		}
		units = append(units, u)
	}
	return units
}

// field decodes one field of unit i into u.
func (r *fileReader) field(i int, u *Unit, key, val *yaml.Node) {
	id, name := u.ID, key.Value
	texts := map[string]*string{"title": &u.Title, "description": &u.Description, "body": &u.Body}
	lists := map[string]*[]string{"keywords": &u.Keywords, "requires": &u.Requires, "suggests": &u.Suggests, "conflicts": &u.Conflicts,
		"supersedes": &u.Supersedes, "capabilities": &u.Capabilities, "triggers": &u.Triggers}
	if p, ok := texts[name]; ok {
		r.text(i, id, name, val, p)
		return
	}
	if p, ok := lists[name]; ok {
		r.list(i, id, name, val, p)
		return
	}
	var s string
	switch name {
	case "id":
	case "kind":
		r.text(i, id, name, val, &s)
		u.Kind = Kind(s)
	case "activation":
		r.text(i, id, name, val, &s)
		u.Activation = Activation(s)
	case "mandatory":
		if v := resolve(val); v.Kind != yaml.ScalarNode || v.Decode(&u.Mandatory) != nil {
			r.add(i, val.Line, id, name, "%s: want true or false, got %s", name, describe(val))
		}
	case "priority":
		r.integer(i, id, name, val, &u.Priority)
	case "schema":
		var v any
		if err := val.Decode(&v); err != nil {
			r.add(i, val.Line, id, name, "schema: cannot be read: %s", describe(val))
			return
		}
		b, err := json.Marshal(v)
		if err != nil {
			r.add(i, val.Line, id, name, "schema: not JSON: object keys must be text and numbers finite")
			return
		}
		u.Schema = b
	default:
		r.add(i, key.Line, id, "", "unknown field %q", clipID(name))
	}
}

// text decodes a scalar into s; a list or a mapping is a problem.
func (r *fileReader) text(i int, id, field string, val *yaml.Node, s *string) {
	if v := resolve(val); v.Kind != yaml.ScalarNode || v.Decode(s) != nil {
		r.add(i, val.Line, id, field, "%s: want text, got %s", field, describe(val))
	}
}

// list decodes a list of scalars into xs (left nil on a problem).
func (r *fileReader) list(i int, id, field string, val *yaml.Node, xs *[]string) {
	v := resolve(val)
	if isNull(v) {
		return
	}
	if v.Kind != yaml.SequenceNode {
		if v.Kind == yaml.ScalarNode {
			r.add(i, val.Line, id, field, "%s: want a list, got %s (write [%s])", field, describe(val), clipID(v.Value))
		} else {
			r.add(i, val.Line, id, field, "%s: want a list, got %s", field, describe(val))
		}
		return
	}
	out := make([]string, 0, len(v.Content))
	for n, e := range v.Content {
		var s string
		if ev := resolve(e); ev.Kind != yaml.ScalarNode || ev.Decode(&s) != nil {
			r.add(i, e.Line, id, field, "%s: entry %d: want text, got %s", field, n+1, describe(e))
			return
		}
		out = append(out, s)
	}
	*xs = out
}

// integer decodes a whole number into n and reports whether it could.
func (r *fileReader) integer(i int, id, field string, val *yaml.Node, n *int) bool {
	if v := resolve(val); v.Kind != yaml.ScalarNode || v.Decode(n) != nil {
		r.add(i, val.Line, id, field, "%s: want a whole number, got %s", field, describe(val))
		return false
	}
	return true
}

// resolve follows an alias to the node it names.
func resolve(n *yaml.Node) *yaml.Node {
	for n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	return n
}

func isNull(n *yaml.Node) bool { return n.Kind == yaml.ScalarNode && n.Tag == "!!null" }

// describe says what a value is, in words: a scalar quoted (clipped), "a
// list", "a mapping".
func describe(n *yaml.Node) string {
	switch n = resolve(n); n.Kind {
	case yaml.SequenceNode:
		return "a list"
	case yaml.MappingNode:
		return "a mapping"
	case yaml.ScalarNode:
		if isNull(n) {
			return "nothing"
		}
		return strconv.Quote(clipID(n.Value))
	}
	return "something else"
}
