package embedded

import (
	"bytes"
	"compress/flate"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/rlm-dev/rlm/retrieval"
)

// How docs.body holds a Document's Text (schema version 7).
//
// A TEXT value is the Text as given (rows written by an older version and
// upgraded in place). A BLOB value is the Text encoded: one flags byte,
// then the rest of the Text after what the flags say is left out, raw or
// deflated (compress/flate, raw DEFLATE without a header):
//
//	bodyFields  the Text starts with fieldsText(d) (the name, signature,
//	            doc comment and path the row holds in its own columns,
//	            joined by newlines — what retrieval.EmbeddingText gives a
//	            document without Text), which is not stored again;
//	bodyDeflate the rest is deflated; set only where that is shorter.
//
// The Text of a definition (package project) starts with those fields and
// adds the names it calls and its own source lines: on GOROOT/src the
// column held 70.4 MB, 22.8 MB of them the fields again; the rest deflates
// from 47.6 to 22.0 MB (docs/BENCHMARKS.md). Decoding gives back the Text
// byte for byte (TestABodyIsReadBackAsWritten).
const (
	bodyFields  = 1 << 0
	bodyDeflate = 1 << 1
)

// fieldsText is the document's name (Qualified, else Symbol), Signature,
// Doc and Path, the non-empty ones joined by "\n": retrieval.EmbeddingText
// of a document without Text, unclipped.
func fieldsText(d *retrieval.Document) string {
	name := d.Qualified
	if name == "" {
		name = d.Symbol
	}
	var b strings.Builder
	for _, s := range [...]string{name, d.Signature, d.Doc, d.Path} {
		if s == "" {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(s)
	}
	return b.String()
}

// flateWriters reuses DEFLATE compressors (each holds ≈ 1 MB of tables).
var flateWriters = sync.Pool{New: func() any {
	w, _ := flate.NewWriter(nil, flate.DefaultCompression) // the level is valid: no error
	return w
}}

// flateReaders reuses DEFLATE decompressors.
var flateReaders = sync.Pool{New: func() any { return flate.NewReader(bytes.NewReader(nil)) }}

// encodeBody is the docs.body value of d (see bodyFields): a BLOB, or ""
// for an empty Text.
func encodeBody(d *retrieval.Document) any {
	if d.Text == "" {
		return ""
	}
	flags := byte(0)
	rest := d.Text
	if f := fieldsText(d); f != "" && strings.HasPrefix(rest, f) {
		flags |= bodyFields
		rest = rest[len(f):]
	}
	if len(rest) >= minDeflate {
		var buf bytes.Buffer
		buf.WriteByte(flags | bodyDeflate)
		w := flateWriters.Get().(*flate.Writer)
		w.Reset(&buf)
		_, werr := io.WriteString(w, rest)
		cerr := w.Close()
		flateWriters.Put(w)
		if werr == nil && cerr == nil && buf.Len() < 1+len(rest) {
			return buf.Bytes()
		}
	}
	return append([]byte{flags}, rest...)
}

// minDeflate is the shortest rest worth trying to deflate: below it the
// block's own bits cost about what it saves.
const minDeflate = 32

// decodeBody sets d.Text from the docs.body value v (a string: the Text;
// []byte: encodeBody's) and the fields d already holds.
func decodeBody(d *retrieval.Document, v any) error {
	switch b := v.(type) {
	case nil:
		d.Text = ""
	case string:
		d.Text = b
	case []byte:
		if len(b) == 0 {
			d.Text = ""
			return nil
		}
		flags, rest := b[0], b[1:]
		if flags&^(bodyFields|bodyDeflate) != 0 {
			return fmt.Errorf("%w: document %q: body: unknown flags %#x", ErrDamaged, d.ID, flags)
		}
		var sb strings.Builder
		if flags&bodyFields != 0 {
			sb.WriteString(fieldsText(d))
		}
		if flags&bodyDeflate != 0 {
			r := flateReaders.Get().(io.ReadCloser)
			err := r.(flate.Resetter).Reset(bytes.NewReader(rest), nil)
			if err == nil {
				_, err = io.Copy(&sb, r)
			}
			flateReaders.Put(r)
			if err != nil {
				return fmt.Errorf("%w: document %q: body: %w", ErrDamaged, d.ID, err)
			}
		} else {
			sb.Write(rest)
		}
		d.Text = sb.String()
	default:
		return fmt.Errorf("%w: document %q: body of type %T", ErrDamaged, d.ID, v)
	}
	return nil
}
