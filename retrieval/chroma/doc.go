// Package chroma is a retrieval.Backend over Chroma's HTTP API v2
// (/api/v2/..., Chroma server ≥ 1.0), written against the wire protocol with
// net/http only.
//
// # What it supports
//
//   - retrieval.Vector: Request.Text is embedded with the configured Embedder
//     and queried against the collection's HNSW index; QueryVector does the
//     same for callers who bring their own vector.
//   - retrieval.Exact: metadata equality on the symbol or qualified name
//     (case-insensitive fallback through lower-cased copies of both).
//   - retrieval.Structural: metadata filters only (Name, Kinds, Languages,
//     PathPrefixes, ExcludeTests).
//
// Lexical, Graph and Hybrid return an error wrapping retrieval.ErrUnsupported.
//
// # Collections
//
// Vectors live in one collection per (Config.Namespace, embedder model id,
// dimensions, distance space), named by CollectionName, inside a tenant and
// database that are created if missing (default_tenant / default_database).
// A change of embedder therefore never mixes vectors; an existing collection
// whose recorded model, dimensions or space disagree is refused with
// ErrMismatch. project sets the namespace per tree (project.ChromaNamespace),
// so trees whose files share relative paths never share records, and keeps
// the collection in line with its search index (Versions lists what a
// collection holds).
//
// Upsert stores each record's Chroma document: Document.Text, or when that
// is empty the text that was embedded (marked with MetaDerivedText and read
// back as an empty Text), so other Chroma clients see what a vector stands
// for.
//
// Config.Limits bound what one record keeps; what does not fit (long
// references, doc, signature, user metadata, text) is kept whole in the
// overflow collection (OverflowCollectionName) and put back by Fetch and
// Search; see Limits.
//
// # Filters
//
// Kinds, Languages, ExcludeTests, OnlyTests, Roles and ExcludeRoles (on the
// role key: records written before roles were stored have none, so
// ExcludeRoles keeps them and Roles leaves them out until they are written
// again), ChangedSince (on the changed key) and Parsers (on parser_name)
// become Chroma where clauses. Path
// prefixes are literal string prefixes of Document.Path; Chroma's where has
// no prefix operator, so each record also stores its ancestor directories
// (dir_1, dir_2, ...): a prefix ending in "/" is an exact server-side
// equality, any other prefix is narrowed on the server by its parent
// directory (if it has one) and finished on the client, over-fetching up to
// Config.MaxScan records — past that bound a search may return fewer hits
// than asked for.
//
// # Scores
//
// Chroma returns distances. Hits report:
//
//	Cosine:       retrieval.ScoreCosineSimilarity, Score = 1 − cosine distance, in [−1, 1], higher is better
//	L2:           retrieval.ScoreL2Distance, Score = squared Euclidean distance (hnswlib's l2), lower is better
//	InnerProduct: ScoreInnerProduct, Score = dot product (1 − Chroma's ip distance), higher is better
//	Exact:        retrieval.ScoreExact, 1 for a case-sensitive match, 0.5 for a case-insensitive one
//	Structural:   retrieval.ScoreExact, 1 (the record satisfies the filter)
//
// # Errors
//
// Server answers and transport failures are *Error (Op, Status, Kind,
// Message), which also match a sentinel with errors.Is: retrieval.ErrBadRequest
// for 400/422, ErrNotFound for 404, retrieval.ErrTooLarge for 413, ErrServer
// for 5xx, ErrTransport when no answer arrived (with context.DeadlineExceeded
// or context.Canceled reachable when that was the cause). Inputs are validated
// before anything is sent: such errors are a *retrieval.DocumentError naming
// the document (or, for the batch as a whole, a plain error) wrapping
// retrieval.ErrBadRequest or retrieval.ErrTooLarge, and nothing is written.
package chroma
