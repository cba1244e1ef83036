package embedded

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/rlm-dev/rlm/retrieval"
)

// Reading documents back: the columns a document is scanned from, its
// references by their rowid range, Fetch by id and readDocs for any query.

// docColumns are the docs columns scanDocument reads, in order: the
// dictionary ids resolved, and the document's rowid range of refs
// (refs_at, refs_n), which readRefs turns into its retrieval.Refs.
const docColumns = `d.id, d.path, d.start_line, d.end_line, d.symbol, d.qualified, d.kind,
	d.language, d.signature, d.doc, d.body, (SELECT v FROM vals WHERE id = d.hash_v), d.test, d.refs_at, d.refs_n,
	` + metaSQL + `, d.changed, (SELECT v FROM vals WHERE id = d.parser_v), d.role, d.name_words`

// metaSQL is the metadata of the document d as JSON, "" for none.
const metaSQL = "(SELECT v FROM vals WHERE id = d.meta_v)"

// refSpan is a document's references: the rows [at, at+n) of refs.
type refSpan struct{ at, n int64 }

// scanDocument scans docColumns followed by extra destinations. The
// document's Refs are not read: fill them with readRefs and the span.
func scanDocument(rows *sql.Rows, extra ...any) (retrieval.Document, refSpan, error) {
	var d retrieval.Document
	var test int
	var span refSpan
	var metadata, nameWords string
	var body any
	dest := append([]any{&d.ID, &d.Path, &d.StartLine, &d.EndLine, &d.Symbol, &d.Qualified, &d.Kind,
		&d.Language, &d.Signature, &d.Doc, &body, &d.ContentHash, &test, &span.at, &span.n, &metadata, &d.Changed, &d.Parser, &d.Role, &nameWords}, extra...)
	if err := rows.Scan(dest...); err != nil {
		return d, span, err
	}
	d.Test = test != 0
	if err := decodeBody(&d, body); err != nil {
		return d, span, err
	}
	if nameWords != "" {
		if err := json.Unmarshal([]byte(nameWords), &d.NameWords); err != nil {
			return d, span, fmt.Errorf("document %s: name words: %w", d.ID, err)
		}
	}
	if metadata != "" {
		if err := json.Unmarshal([]byte(metadata), &d.Metadata); err != nil {
			return d, span, fmt.Errorf("document %q: metadata: %w", d.ID, err)
		}
	}
	return d, span, nil
}

// queryer runs a query: *sql.DB, *sql.Tx or readTx.
type queryer interface {
	QueryContext(ctx context.Context, q string, args ...any) (*sql.Rows, error)
}

// refsOfSpans reads the refs of the rowid ranges in the JSON array bound
// to it ([[at, end], ...]) with the index of each range, in range order
// then rowid order (a document's references in source order). One text
// for any number of ranges, so it is prepared once (stmtCache).
const refsOfSpans = `SELECT s.key, n.name, n.kind, r.line, n.via, n.scope, n.type
	FROM json_each(?) s JOIN refs r ON r.rowid >= json_extract(s.value, '$[0]') AND r.rowid < json_extract(s.value, '$[1]')
	JOIN ref_names n ON n.id = r.nk ORDER BY s.key, r.rowid`

// readRefs sets docs[i].Refs to the references of spans[i] (nil for an
// empty span), with one query for all of them.
func readRefs(ctx context.Context, q queryer, docs []*retrieval.Document, spans []refSpan) error {
	arg := make([]byte, 0, 2+24*len(spans))
	arg = append(arg, '[')
	some := false
	for i, s := range spans {
		if i > 0 {
			arg = append(arg, ',')
		}
		// An empty span still takes its index, as [0,0].
		arg = append(arg, '[')
		arg = strconv.AppendInt(arg, s.at, 10)
		arg = append(arg, ',')
		arg = strconv.AppendInt(arg, s.at+s.n, 10)
		arg = append(arg, ']')
		some = some || s.n > 0
	}
	arg = append(arg, ']')
	if !some {
		return nil
	}
	rows, err := q.QueryContext(ctx, refsOfSpans, string(arg))
	if err != nil {
		return fmt.Errorf("refs: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var i int
		var r retrieval.Ref
		if err := rows.Scan(&i, &r.Name, &r.Kind, &r.Line, &r.Via, &r.Scope, &r.Type); err != nil {
			return fmt.Errorf("refs: %w", err)
		}
		if i < 0 || i >= len(docs) {
			return fmt.Errorf("refs: range %d of %d", i, len(docs))
		}
		d := docs[i]
		if d.Refs == nil {
			d.Refs = make([]retrieval.Ref, 0, spans[i].n)
		}
		d.Refs = append(d.Refs, r)
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("refs: %w", err)
	}
	return nil
}

// Fetch returns the stored documents with the given ids, in the order
// asked; ids not stored are skipped, and an id asked twice is returned
// twice. More than retrieval.MaxLimit ids fail with an error wrapping
// retrieval.ErrTooLarge.
func (b *Backend) Fetch(ctx context.Context, ids []string) ([]retrieval.Document, error) {
	if len(ids) > retrieval.MaxLimit {
		return nil, fmt.Errorf("embedded: fetch: %w: %d ids, limit %d", retrieval.ErrTooLarge, len(ids), retrieval.MaxLimit)
	}
	if len(ids) == 0 {
		return nil, ctx.Err()
	}
	args := make([]any, len(ids))
	for i, id := range ids {
		args[i] = idHash(id)
	}
	q := "SELECT " + docColumns + " FROM docs d WHERE d.id_hash IN (" + placeholders(len(ids)) + ")"
	// One read transaction: the documents and their refs from one state.
	tx, err := b.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, fmt.Errorf("embedded: fetch: %w", err)
	}
	defer tx.Rollback()
	docs, err := readDocs(ctx, tx, true, q, args...)
	if err != nil {
		return nil, fmt.Errorf("embedded: fetch: %w", err)
	}
	byID := make(map[string]retrieval.Document, len(docs))
	for _, d := range docs {
		byID[d.ID] = d
	}
	var out []retrieval.Document
	for _, id := range ids {
		if d, ok := byID[id]; ok {
			out = append(out, d)
		}
	}
	return out, nil
}

// readDocs runs q, whose rows are docColumns, and returns their documents
// in row order, with their refs when withRefs.
func readDocs(ctx context.Context, tx queryer, withRefs bool, q string, args ...any) ([]retrieval.Document, error) {
	rows, err := tx.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var docs []retrieval.Document
	var spans []refSpan
	for rows.Next() {
		d, span, err := scanDocument(rows)
		if err != nil {
			return nil, err
		}
		docs = append(docs, d)
		spans = append(spans, span)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	rows.Close()
	if !withRefs {
		return docs, nil
	}
	ptrs := make([]*retrieval.Document, len(docs))
	for i := range docs {
		ptrs[i] = &docs[i]
	}
	if err := readRefs(ctx, tx, ptrs, spans); err != nil {
		return nil, err
	}
	return docs, nil
}
