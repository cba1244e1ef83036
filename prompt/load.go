package prompt

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"strconv"

	"go.yaml.in/yaml/v3"
)

// MaxCatalogFileBytes bounds a catalog file.
const MaxCatalogFileBytes = 64 << 20

// catalogFile is the format of a catalog file (docs/prompt-compiler.md):
//
//	version: 1          # optional
//	units:
//	  - id: git_diff
//	    kind: tool
//	    ...
//
// YAML or JSON (JSON is read as YAML); unknown fields are errors.
type catalogFile struct {
	Version int        `yaml:"version"`
	Units   []fileUnit `yaml:"units"`
}

// fileUnit is one unit as written in a catalog file: the fields of Unit
// (snake_case), with the schema written as YAML or JSON.
type fileUnit struct {
	ID           string    `yaml:"id"`
	Kind         string    `yaml:"kind"`
	Title        string    `yaml:"title"`
	Description  string    `yaml:"description"`
	Keywords     []string  `yaml:"keywords"`
	Body         string    `yaml:"body"`
	Schema       yaml.Node `yaml:"schema"`
	Activation   string    `yaml:"activation"`
	Requires     []string  `yaml:"requires"`
	Suggests     []string  `yaml:"suggests"`
	Conflicts    []string  `yaml:"conflicts"`
	Supersedes   []string  `yaml:"supersedes"`
	Capabilities []string  `yaml:"capabilities"`
	Triggers     []string  `yaml:"triggers"`
	Mandatory    bool      `yaml:"mandatory"`
	Priority     int       `yaml:"priority"`
}

// yamlLine finds the line in a go-yaml message ("line 12: ...", "yaml:
// line 12: ...").
var yamlLine = regexp.MustCompile(`^(?:yaml: )?line (\d+): (.*)$`)

// LoadCatalog reads a catalog file (YAML or JSON, with go.yaml.in/yaml/v3
// and unknown fields refused) and builds the catalog with NewCatalog. Each
// unit's Source is "PATH:LINE" of its entry. Errors: a *CatalogError
// (Path set) listing every problem with PATH:LINE — syntax errors, unknown
// fields, wrong types, and every invalid unit at the line of the offending
// field (unknown kind, duplicate id, a relation naming no unit, a bad
// schema, ...); the file system's error, wrapped.
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
	units, fields, err := parseCatalog(path, data)
	if err != nil {
		return nil, err
	}
	cat, err := NewCatalog(ctx, units, opts)
	var ce *CatalogError
	if errors.As(err, &ce) {
		ce.Path = path
		for i, p := range ce.Problems {
			if line, ok := fields[p.Source][p.Field]; ok && p.Field != "" {
				ce.Problems[i].Source = fmt.Sprintf("%s:%d", path, line)
			}
		}
	}
	return cat, err
}

// parseCatalog decodes a catalog file into units (Source "PATH:LINE") and,
// per unit source, the line of each field it writes.
func parseCatalog(path string, data []byte) ([]Unit, map[string]map[string]int, error) {
	fail := func(problems []UnitProblem) error { return &CatalogError{Path: path, Problems: problems} }
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return nil, nil, fail(yamlProblems(path, err))
	}
	var cf catalogFile
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&cf); err != nil && !errors.Is(err, io.EOF) {
		return nil, nil, fail(yamlProblems(path, err))
	}
	if cf.Version != 0 && cf.Version != 1 {
		return nil, nil, fail([]UnitProblem{{Source: fmt.Sprintf("%s:%d", path, keyLine(docNode(&root), "version")), Field: "version",
			Reason: fmt.Sprintf("version %d: this rlm reads version 1", cf.Version)}})
	}
	var entries []*yaml.Node
	if seq := valueNode(docNode(&root), "units"); seq != nil && seq.Kind == yaml.SequenceNode {
		entries = seq.Content
	}
	units := make([]Unit, len(cf.Units))
	fields := map[string]map[string]int{}
	var problems []UnitProblem
	for i, fu := range cf.Units {
		line := 0
		if i < len(entries) {
			line = entries[i].Line
		}
		src := fmt.Sprintf("%s:%d", path, line)
		fl := map[string]int{}
		if i < len(entries) && entries[i].Kind == yaml.MappingNode {
			for k := 0; k+1 < len(entries[i].Content); k += 2 {
				fl[entries[i].Content[k].Value] = entries[i].Content[k+1].Line
			}
		}
		fields[src] = fl
		u := Unit{ID: fu.ID, Kind: Kind(fu.Kind), Title: fu.Title, Description: fu.Description, Keywords: fu.Keywords,
			Body: fu.Body, Activation: Activation(fu.Activation), Requires: fu.Requires, Suggests: fu.Suggests,
			Conflicts: fu.Conflicts, Supersedes: fu.Supersedes, Capabilities: fu.Capabilities, Triggers: fu.Triggers,
			Mandatory: fu.Mandatory, Priority: fu.Priority, Source: src}
		if fu.Schema.Kind != 0 {
			var v any
			err := fu.Schema.Decode(&v)
			var b []byte
			if err == nil {
				b, err = json.Marshal(v)
			}
			if err != nil {
				problems = append(problems, UnitProblem{Source: fmt.Sprintf("%s:%d", path, fu.Schema.Line), ID: fu.ID, Field: "schema",
					Reason: fmt.Sprintf("schema: cannot be read as JSON: %v", err)})
				continue
			}
			u.Schema = b
		}
		units[i] = u
	}
	if len(problems) > 0 {
		return nil, nil, fail(problems)
	}
	return units, fields, nil
}

// yamlProblems turns a go-yaml error into problems at PATH:LINE.
func yamlProblems(path string, err error) []UnitProblem {
	var msgs []string
	var te *yaml.TypeError
	if errors.As(err, &te) {
		msgs = te.Errors
	} else {
		msgs = []string{err.Error()}
	}
	out := make([]UnitProblem, len(msgs))
	for i, m := range msgs {
		out[i] = UnitProblem{Source: path, Reason: m}
		if sm := yamlLine.FindStringSubmatch(m); sm != nil {
			if n, err := strconv.Atoi(sm[1]); err == nil {
				out[i] = UnitProblem{Source: fmt.Sprintf("%s:%d", path, n), Reason: sm[2]}
			}
		}
	}
	return out
}

// docNode returns the top mapping of a parsed document, or nil.
func docNode(root *yaml.Node) *yaml.Node {
	if root.Kind == yaml.DocumentNode && len(root.Content) == 1 {
		return root.Content[0]
	}
	return nil
}

// valueNode returns the value of key in mapping m, or nil.
func valueNode(m *yaml.Node, key string) *yaml.Node {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	for k := 0; k+1 < len(m.Content); k += 2 {
		if m.Content[k].Value == key {
			return m.Content[k+1]
		}
	}
	return nil
}

// keyLine returns the line of key in mapping m, 0 if absent.
func keyLine(m *yaml.Node, key string) int {
	if v := valueNode(m, key); v != nil {
		return v.Line
	}
	return 0
}
