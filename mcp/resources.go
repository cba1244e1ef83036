package mcp

import (
	"context"
	"encoding/json"
	"fmt"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// SnapshotURI is the resource of the knowledge base's state (Status as
// JSON), validated when it is read.
const SnapshotURI = "rlm://snapshot"

// addResources adds the snapshot and, read-only, every rule file the
// planner (and the prompt compiler, with compile) loaded.
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
	for _, src := range s.proj.Planner().Engine().Sources() {
		s.addRuleFile("retrieval", src.Layer, src.Name, src.Path, src.Origin, src.Text)
	}
	if s.opts.Compiler != nil {
		for _, src := range s.opts.Compiler.Engine().Sources() {
			s.addRuleFile("prompt", src.Layer, src.Name, src.Path, src.Origin, src.Text)
		}
	}
	return nil
}

// addRuleFile adds one rule file as rlm://rules/ENGINE/LAYER/NAME.
func (s *Server) addRuleFile(engine string, layer int, name, display, origin, text string) {
	uri := fmt.Sprintf("rlm://rules/%s/%d/%s", engine, layer, name)
	s.srv.AddResource(&sdk.Resource{URI: uri, Name: name, Title: display, MIMEType: "text/x-prolog", Size: int64(len(text)),
		Description: fmt.Sprintf("A %s rule file (layer %d: %s), as loaded; read-only.", engine, layer, origin)},
		func(context.Context, *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
			return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: uri, MIMEType: "text/x-prolog", Text: text}}}, nil
		})
}
