package chroma

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/rlm-dev/rlm/retrieval"
)

// Metadata keys stored with every record. Values are Chroma scalars only
// (string, int, float, bool); empty strings are omitted.
const (
	MetaPath        = "path"         // string, slash-separated, project-relative
	MetaStartLine   = "start_line"   // int, 1-based inclusive
	MetaEndLine     = "end_line"     // int, 1-based inclusive
	MetaSymbol      = "symbol"       // string
	MetaQualified   = "qualified"    // string
	MetaSymbolLC    = "symbol_lc"    // string, lower-cased symbol (case-insensitive exact)
	MetaQualifiedLC = "qualified_lc" // string, lower-cased qualified name
	MetaKind        = "kind"         // string
	MetaLanguage    = "language"     // string
	MetaSignature   = "signature"    // string
	MetaDoc         = "doc"          // string
	MetaContentHash = "content_hash" // string, the file's content hash (provenance)
	MetaTest        = "test"         // bool, always present
	// MetaRole is retrieval.RoleOf(Document), for Filter.Roles and
	// ExcludeRoles; MetaRoleDerived is true when Document.Role was empty
	// (RoleOf read it from Test), and it is read back empty. Records
	// written before roles were stored have neither.
	MetaRole        = "role"         // string
	MetaRoleDerived = "role_derived" // bool, present only when true
	MetaRefs        = "refs"         // string, JSON array of retrieval.Ref (kept so Fetch round-trips)
	MetaChanged     = "changed"      // int, Document.Changed (omitted when 0)
	MetaParser      = "parser"       // string, Document.Parser ("name/version")
	MetaParserName  = "parser_name"  // string, retrieval.ParserName(Document.Parser), for Filter.Parsers
	// MetaDerivedText is true when the record's Chroma document is not
	// Document.Text (which was empty) but the text that was embedded
	// (EmbeddingText): stored so that other Chroma clients see what each
	// vector stands for, and left out of Document.Text when read back.
	MetaDerivedText = "derived_text" // bool, present only when true
	// MetaID is Document.ID on a record stored under its hashed id
	// (Limits.MaxIDBytes); absent otherwise.
	MetaID = "doc_id" // string
	// MetaUserPrefix prefixes each key of Document.Metadata.
	MetaUserPrefix = "meta:"
	// MetaDirPrefix prefixes the ancestor-directory keys dir_1..dir_N used
	// for path-prefix filters (see MaxDirDepth).
	MetaDirPrefix = "dir_"
)

// Limits on what one record may carry.
const (
	// MaxIDBytes bounds Document.ID.
	MaxIDBytes = 1024
	// MaxTextBytes bounds Document.Text, as the embedded backend bounds a
	// whole document (a text over Limits.MaxDocumentBytes is kept in the
	// overflow collection).
	MaxTextBytes = 1 << 20
)

// toMetadata builds the Chroma metadata of d, whole (Limits.fit moves what
// does not fit a record). It validates what Chroma would reject or what
// could not round-trip.
func toMetadata(d retrieval.Document) (map[string]any, error) {
	if d.ID == "" {
		return nil, &retrieval.DocumentError{Err: fmt.Errorf("%w: empty document id", retrieval.ErrBadRequest)}
	}
	if len(d.ID) > MaxIDBytes {
		return nil, &retrieval.DocumentError{ID: d.ID, Err: fmt.Errorf("%w: document id over %d bytes", retrieval.ErrTooLarge, MaxIDBytes)}
	}
	if len(d.Text) > MaxTextBytes {
		return nil, &retrieval.DocumentError{ID: d.ID, Err: fmt.Errorf("%w: text is %d bytes, over %d", retrieval.ErrTooLarge, len(d.Text), MaxTextBytes)}
	}
	if !utf8.ValidString(d.ID) || !utf8.ValidString(d.Text) {
		return nil, &retrieval.DocumentError{ID: d.ID, Err: fmt.Errorf("%w: id or text is not valid UTF-8", retrieval.ErrBadRequest)}
	}
	m := map[string]any{MetaTest: d.Test}
	put := func(k, v string) {
		if v != "" {
			m[k] = v
		}
	}
	put(MetaPath, d.Path)
	put(MetaSymbol, d.Symbol)
	put(MetaQualified, d.Qualified)
	put(MetaSymbolLC, strings.ToLower(d.Symbol))
	put(MetaQualifiedLC, strings.ToLower(d.Qualified))
	put(MetaKind, d.Kind)
	put(MetaLanguage, d.Language)
	put(MetaSignature, d.Signature)
	put(MetaDoc, d.Doc)
	put(MetaContentHash, d.ContentHash)
	put(MetaParser, d.Parser)
	put(MetaParserName, retrieval.ParserName(d.Parser))
	m[MetaRole] = retrieval.RoleOf(d)
	if d.Role == "" {
		m[MetaRoleDerived] = true
	}
	if d.Changed != 0 {
		m[MetaChanged] = d.Changed
	}
	if d.StartLine != 0 {
		m[MetaStartLine] = d.StartLine
	}
	if d.EndLine != 0 {
		m[MetaEndLine] = d.EndLine
	}
	for i, a := range ancestors(d.Path) {
		m[dirKey(i+1)] = a
	}
	if len(d.Refs) > 0 {
		b, err := json.Marshal(d.Refs)
		if err != nil {
			return nil, &retrieval.DocumentError{ID: d.ID, Err: fmt.Errorf("%w: refs: %v", retrieval.ErrBadRequest, err)}
		}
		m[MetaRefs] = string(b)
	}
	for k, v := range d.Metadata {
		if k == "" {
			return nil, &retrieval.DocumentError{ID: d.ID, Err: fmt.Errorf("%w: empty metadata key", retrieval.ErrBadRequest)}
		}
		m[MetaUserPrefix+k] = v
	}
	for k, v := range m {
		if s, ok := v.(string); ok && (!utf8.ValidString(s) || !utf8.ValidString(k)) {
			return nil, &retrieval.DocumentError{ID: d.ID, Err: fmt.Errorf("%w: metadata %q is not valid UTF-8", retrieval.ErrBadRequest, k)}
		}
	}
	return m, nil
}

// fromRecord rebuilds a Document from a stored record (id is the
// record's; MetaID, when present, is the document's). Unknown keys are
// ignored; malformed values are reported.
func fromRecord(id string, text *string, m map[string]any) (retrieval.Document, error) {
	d := retrieval.Document{ID: docID(id, m)}
	if derived, _ := m[MetaDerivedText].(bool); text != nil && !derived {
		d.Text = *text
	}
	for k, v := range m {
		var err error
		switch k {
		case MetaPath:
			d.Path, err = str(v)
		case MetaSymbol:
			d.Symbol, err = str(v)
		case MetaQualified:
			d.Qualified, err = str(v)
		case MetaKind:
			d.Kind, err = str(v)
		case MetaLanguage:
			d.Language, err = str(v)
		case MetaSignature:
			d.Signature, err = str(v)
		case MetaDoc:
			d.Doc, err = str(v)
		case MetaContentHash:
			d.ContentHash, err = str(v)
		case MetaStartLine:
			d.StartLine, err = integer(v)
		case MetaEndLine:
			d.EndLine, err = integer(v)
		case MetaChanged:
			var n int
			n, err = integer(v)
			d.Changed = int64(n)
		case MetaParser:
			d.Parser, err = str(v)
		case MetaRole:
			if derived, _ := m[MetaRoleDerived].(bool); !derived {
				d.Role, err = str(v)
			}
		case MetaTest:
			b, ok := v.(bool)
			if !ok {
				err = fmt.Errorf("not a bool: %v", v)
			}
			d.Test = b
		case MetaRefs:
			var s string
			if s, err = str(v); err == nil {
				err = json.Unmarshal([]byte(s), &d.Refs)
			}
		default:
			if u, ok := strings.CutPrefix(k, MetaUserPrefix); ok {
				var s string
				if s, err = str(v); err == nil {
					if d.Metadata == nil {
						d.Metadata = map[string]string{}
					}
					d.Metadata[u] = s
				}
			}
		}
		if err != nil {
			return d, fmt.Errorf("record %q metadata %q: %v", id, k, err)
		}
	}
	return d, nil
}

// docID is the document id of record id with metadata m.
func docID(id string, m map[string]any) string {
	if s, ok := m[MetaID].(string); ok && s != "" {
		return s
	}
	return id
}

func str(v any) (string, error) {
	s, ok := v.(string)
	if !ok {
		return "", fmt.Errorf("not a string: %v", v)
	}
	return s, nil
}

func integer(v any) (int, error) {
	switch n := v.(type) {
	case json.Number:
		i, err := strconv.ParseInt(string(n), 10, 0)
		if err != nil {
			f, ferr := n.Float64()
			if ferr != nil || f != float64(int(f)) {
				return 0, fmt.Errorf("not an integer: %v", n)
			}
			return int(f), nil
		}
		return int(i), nil
	case float64:
		return int(n), nil
	}
	return 0, fmt.Errorf("not a number: %v", v)
}
