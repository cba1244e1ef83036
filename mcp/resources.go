package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// SnapshotURI is the resource of the knowledge base's state (Status as
// JSON), validated when it is read.
const SnapshotURI = "rlm://snapshot"

// addResources adds the snapshot and, read-only, every rule file the
// planner (and the prompt compiler, with compile) loaded, once each:
// rlm://rules/LAYER/NAME, NAME its path in the rules tree (concern folder
// first: retrieval/classify.pl, prompt/compile.pl, intent/resolve.pl),
// described by its concern.
func (s *Server) addResources() error {
	s.srv.AddResource(&sdk.Resource{URI: SnapshotURI, Name: "snapshot", Title: "Knowledge base snapshot", MIMEType: "application/json",
		Description: "The snapshot the files were validated into when read: generation, fingerprint, counts, and every file that is not current."},
		func(ctx context.Context, req *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
			st, err := s.readStatus(ctx)
			if err != nil {
				return nil, fmt.Errorf("rlm: snapshot: %w", err)
			}
			b, err := json.Marshal(st)
			if err != nil {
				return nil, err
			}
			return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: SnapshotURI, MIMEType: "application/json", Text: string(b)}}}, nil
		})
	files := map[string]*ruleFile{} // by URI
	var order []*ruleFile
	add := func(uri, name, display, origin, text string, layer int, loader string) {
		if f, ok := files[uri]; ok {
			f.loaders = append(f.loaders, loader)
			return
		}
		f := &ruleFile{uri: uri, name: name, display: display, origin: origin, text: text, layer: layer, loaders: []string{loader}}
		files[uri] = f
		order = append(order, f)
	}
	for _, src := range s.proj.Planner().Engine().Sources() {
		add(ruleURI(src.Layer, src.Name), src.Name, src.Path, src.Origin, src.Text, src.Layer, "the retrieval planner")
	}
	if s.opts.Compiler != nil {
		// The compiler loads only prompt/ of the same rule folders: its
		// names are relative to prompt/.
		for _, src := range s.opts.Compiler.Engine().Sources() {
			name := "prompt/" + src.Name
			uri := ruleURI(src.Layer, name)
			if f, ok := files[uri]; ok && f.text != src.Text {
				uri = fmt.Sprintf("rlm://rules/compiler/%d/%s", src.Layer, name) // the compiler has other rules
			}
			add(uri, name, src.Path, src.Origin, src.Text, src.Layer, "the prompt compiler")
		}
	}
	for _, f := range order {
		s.addRuleFile(f)
	}
	return nil
}

// ruleFile is a loaded rule file and the engines that loaded it.
type ruleFile struct {
	uri, name, display, origin, text string
	layer                            int
	loaders                          []string
}

// ruleURI is the resource of the rule file at the slash path name (its
// concern folder first) of layer: rlm://rules/LAYER/NAME.
func ruleURI(layer int, name string) string { return fmt.Sprintf("rlm://rules/%d/%s", layer, name) }

// concerns describe the default rule folders (package rules).
var concerns = map[string]string{
	"retrieval": "Retrieval rules: how the planner classifies a query, picks search strategies and judges the evidence",
	"prompt":    "Prompt-compiler rules: which catalog units (instructions, tools, context) a model sees for a task",
	"intent":    "Intent-routing rules: how an utterance is resolved to an intent and its slots validated",
}

// describe says what a rule file decides (by its concern folder), where
// it comes from and who loaded it.
func (f *ruleFile) describe() string {
	concern, _, nested := strings.Cut(f.name, "/")
	what, ok := concerns[concern]
	switch {
	case !ok && nested:
		what = fmt.Sprintf("Rules of the %s concern", concern)
	case !ok:
		what = "A rule file outside the concern folders"
	}
	from := fmt.Sprintf("layer %d (%s)", f.layer, f.origin)
	if f.layer == 0 {
		from = "layer 0 (rlm's defaults)"
	}
	return fmt.Sprintf("%s. From %s, loaded by %s. Read-only: the text as loaded.", what, from, strings.Join(f.loaders, " and "))
}

// addRuleFile adds one rule file, read-only.
func (s *Server) addRuleFile(f *ruleFile) {
	s.srv.AddResource(&sdk.Resource{URI: f.uri, Name: f.name, Title: f.display, MIMEType: "text/x-prolog", Size: int64(len(f.text)),
		Description: f.describe()},
		func(context.Context, *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
			return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: f.uri, MIMEType: "text/x-prolog", Text: f.text}}}, nil
		})
}
