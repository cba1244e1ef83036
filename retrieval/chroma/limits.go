package chroma

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/rlm-dev/rlm/retrieval"
)

// Limits bound what one record keeps in the collection itself. A record's
// metadata values that do not fit (MetaRefs, MetaDoc, MetaSignature,
// MetaParser and the user's meta: keys, largest first) and a Document.Text
// over MaxDocumentBytes are kept whole in the collection's overflow
// collection (see OverflowCollectionName) instead, and Fetch and Search put
// them back: nothing is cut. The keys that filters and exact search read
// (path, names, kind, language, role, test, changed, parser_name, dir_N,
// content_hash, lines) always stay in the record; a record whose kept
// metadata alone is over a limit is refused with a *retrieval.DocumentError
// wrapping retrieval.ErrTooLarge.
//
// The server's own limits, read from Chroma's source: the single-node
// server (the npm chromadb 3.5.0 package's Rust frontend, Chroma 1.0.x)
// bounds only a request body, at 40 MiB (max_payload_size_bytes, answered
// with 413), and no field of a record; Chroma Cloud enforces per-record
// quotas (CloudLimits). Zero fields take the defaults below.
type Limits struct {
	// MaxMetadataBytes bounds a record's metadata as the sum over its keys
	// of len(key)+8 plus the length of string values (default
	// DefaultMaxMetadataBytes: records stay small enough that batches of
	// them pack well under a request's bound).
	MaxMetadataBytes int
	// MaxValueBytes bounds one string metadata value (0: no bound).
	MaxValueBytes int
	// MaxMetadataKeys bounds the keys of one record's metadata (0: no
	// bound).
	MaxMetadataKeys int
	// MaxDocumentBytes bounds the record's Chroma document (a longer
	// Document.Text keeps its first MaxDocumentBytes there and whole in the
	// overflow collection) and one overflow part (default
	// DefaultMaxDocumentBytes).
	MaxDocumentBytes int
	// MaxIDBytes bounds a record's id (0: no bound but MaxIDBytes, the
	// constant, on Document.ID; else at least HashedIDBytes). A
	// Document.ID over it, or one that starts with HashedIDPrefix, is
	// stored under its hashed id (HashedID) with the id itself in MetaID;
	// every method takes and returns Document.ID as usual. Changing this
	// bound for an existing collection changes where such documents are
	// stored: rebuild it.
	MaxIDBytes int
	// MaxKeyBytes bounds a metadata key (0: no bound). A user key
	// (MetaUserPrefix) over it is kept in the overflow collection; the
	// fixed keys are all shorter than 36 bytes.
	MaxKeyBytes int
}

// Default limits: see Limits.
const (
	DefaultMaxMetadataBytes = 256 << 10
	DefaultMaxDocumentBytes = MaxTextBytes
)

// CloudLimits are Chroma Cloud's documented per-record quotas
// (https://docs.trychroma.com/cloud/quotas-limits, read 2026-12-01: ids of
// at most 128 bytes, record metadata values of at most 4,096 bytes,
// metadata keys of at most 36 bytes, at most 32 metadata keys, documents
// of at most 16,384 bytes; an earlier version of the page, in
// chroma-core/chroma's docs/mintlify/cloud/quotas-limits.mdx, gave 8,182
// bytes a value and no id or key bound).
func CloudLimits() Limits {
	return Limits{MaxMetadataBytes: DefaultMaxMetadataBytes, MaxValueBytes: 4096, MaxMetadataKeys: 32, MaxDocumentBytes: 16384,
		MaxIDBytes: 128, MaxKeyBytes: 36}
}

// HashedIDPrefix starts every hashed record id (HashedID).
const HashedIDPrefix = "#sha256:"

// HashedIDBytes is the length of a hashed record id.
const HashedIDBytes = len(HashedIDPrefix) + 2*sha256.Size

// HashedID is the record id of a document id stored hashed (see
// Limits.MaxIDBytes): HashedIDPrefix and the hex SHA-256 of id.
func HashedID(id string) string {
	sum := sha256.Sum256([]byte(id))
	return HashedIDPrefix + hex.EncodeToString(sum[:])
}

// recordID is the id of document id's record: HashedID(id) when id is
// over l.MaxIDBytes or starts with HashedIDPrefix (so that no stored id
// can be taken for another's hash), else id. With no MaxIDBytes it is id.
func (l Limits) recordID(id string) (rid string, hashed bool) {
	if l.MaxIDBytes <= 0 || len(id) <= l.MaxIDBytes && !strings.HasPrefix(id, HashedIDPrefix) {
		return id, false
	}
	return HashedID(id), true
}

// recordIDs maps document ids to record ids.
func (l Limits) recordIDs(ids []string) []string {
	if l.MaxIDBytes <= 0 {
		return ids
	}
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i], _ = l.recordID(id)
	}
	return out
}

func (l Limits) withDefaults() Limits {
	if l.MaxMetadataBytes <= 0 {
		l.MaxMetadataBytes = DefaultMaxMetadataBytes
	}
	if l.MaxDocumentBytes <= 0 {
		l.MaxDocumentBytes = DefaultMaxDocumentBytes
	}
	return l
}

// overflowText is the key of a whole Document.Text in an overflow payload
// (no metadata key starts with '#').
const overflowText = "#text"

// movable reports whether metadata key k may be kept in the overflow
// collection: no filter, exact search or Versions reads it.
func movable(k string) bool {
	switch k {
	case MetaRefs, MetaDoc, MetaSignature, MetaParser:
		return true
	}
	return strings.HasPrefix(k, MetaUserPrefix)
}

// metaSize is the size Limits.MaxMetadataBytes bounds.
func metaSize(m map[string]any) int {
	n := 0
	for k, v := range m {
		n += len(k) + 8
		if s, ok := v.(string); ok {
			n += len(s)
		}
	}
	return n
}

// overflowKeys is the number of keys a record with an overflow payload
// gains (MetaOverflow, MetaOverflowParts and, at most, MetaOverflowHit),
// and overflowBytes a bound on their size.
const (
	overflowKeys  = 3
	overflowBytes = 3*8 + len(MetaOverflow) + len(MetaOverflowParts) + len(MetaOverflowHit) + overflowHashLen + 8
)

// fit moves what of record id's metadata m and Chroma document text does
// not fit l into the returned payload (nil when everything fits), and
// returns the document to store. derived text is the embedded text, which
// is never read back, so it is only cut.
func (l Limits) fit(id string, m map[string]any, text string, derived bool) (string, map[string]any, error) {
	l = l.withDefaults()
	var payload map[string]any
	if len(text) > l.MaxDocumentBytes {
		if !derived {
			payload = map[string]any{overflowText: text}
		}
		text = cutUTF8(text, l.MaxDocumentBytes)
	}
	over := func() bool {
		keys, size := len(m), metaSize(m)
		if payload != nil {
			keys, size = keys+overflowKeys, size+overflowBytes
		}
		if l.MaxMetadataKeys > 0 && keys > l.MaxMetadataKeys {
			return true
		}
		return size > l.MaxMetadataBytes
	}
	var cands []string
	for k, v := range m {
		if !movable(k) {
			continue
		}
		if s, ok := v.(string); ok && l.MaxValueBytes > 0 && len(s) > l.MaxValueBytes || l.MaxKeyBytes > 0 && len(k) > l.MaxKeyBytes {
			if payload == nil {
				payload = map[string]any{}
			}
			payload[k] = v
			delete(m, k)
			continue
		}
		cands = append(cands, k)
	}
	sort.Slice(cands, func(i, j int) bool {
		a, b := valueLen(m[cands[i]]), valueLen(m[cands[j]])
		if a != b {
			return a > b
		}
		return cands[i] < cands[j]
	})
	for _, k := range cands {
		if !over() {
			break
		}
		if payload == nil {
			payload = map[string]any{}
		}
		payload[k] = m[k]
		delete(m, k)
	}
	tooLarge := func(format string, a ...any) error {
		return &retrieval.DocumentError{ID: id, Err: fmt.Errorf("%w: %s", retrieval.ErrTooLarge, fmt.Sprintf(format, a...))}
	}
	for k, v := range m {
		if s, ok := v.(string); ok && l.MaxValueBytes > 0 && len(s) > l.MaxValueBytes {
			return "", nil, tooLarge("metadata %q is %d bytes, over the server's %d per value, and filters read it", k, len(s), l.MaxValueBytes)
		}
		if l.MaxKeyBytes > 0 && len(k) > l.MaxKeyBytes {
			return "", nil, tooLarge("metadata key %q is %d bytes, over the server's %d per key, and filters read it", k, len(k), l.MaxKeyBytes)
		}
	}
	if over() {
		return "", nil, tooLarge("metadata kept for filters is %d keys, ~%d bytes, over %d keys, %d bytes", len(m), metaSize(m), l.MaxMetadataKeys, l.MaxMetadataBytes)
	}
	return text, payload, nil
}

func valueLen(v any) int {
	if s, ok := v.(string); ok {
		return len(s)
	}
	return 8
}

// cutUTF8 returns the longest prefix of s of at most n bytes that ends at
// a rune boundary.
func cutUTF8(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
