package providers

import (
	"context"
	"math"
	"unicode"
	"unicode/utf8"

	"github.com/cespare/xxhash/v2"

	"github.com/rlm-dev/rlm/retrieval"
)

// LocalModelID is the model id of [LocalEmbedder]. The "v1" names the exact
// feature set and hashing below; any change to them must change the id, since
// stored vectors are only comparable within one id and dimension.
const LocalModelID = "rlm-local-hash-v1"

// LocalConfig configures a [LocalEmbedder]. Zero values take the defaults.
type LocalConfig struct {
	// Dimensions is the vector length (default 384, at least 8).
	Dimensions int
	// MaxTexts caps texts per Embed call (default 4096).
	MaxTexts int
	// MaxTextBytes caps the UTF-8 length of each text (default 32 KiB).
	MaxTextBytes int
}

// LocalEmbedder is the offline, deterministic default embedder. It needs no
// network, no key and no model weights.
//
// Features of a text (model "rlm-local-hash-v1"):
//   - identifier tokens: the text is split on every rune that is not a letter
//     or digit, then at camelCase humps ("parseHTTPRequest" → parse, http,
//     request), and at letter/digit boundaries ("utf8Decode" → utf, 8,
//     decode); tokens are lowercased; weight 1;
//   - character 3-grams of each token padded as "^tok$" (so "id" still gives
//     "^id", "id$"); weight 0.5;
//   - a text without any letter or digit is hashed whole, weight 1.
//
// Each feature is hashed with xxhash64 over "t:"+token, "g:"+3-gram or
// "w:"+text (namespaces kept apart); the low 32 bits pick the component
// (lo32 * Dimensions >> 32), the top bit the sign (set = negative). The vector is L2-normalised, so cosine similarity is the
// dot product. Identical input gives an identical vector on every platform;
// texts sharing identifier parts score higher than unrelated ones.
//
// Usage.PromptTokens/TotalTokens count identifier tokens. Safe for
// concurrent use.
type LocalEmbedder struct {
	dims     int
	maxTexts int
	maxBytes int
}

// NewLocalEmbedder validates cfg (KindConfiguration on failure).
func NewLocalEmbedder(cfg LocalConfig) (*LocalEmbedder, error) {
	l := &LocalEmbedder{dims: cfg.Dimensions, maxTexts: cfg.MaxTexts, maxBytes: cfg.MaxTextBytes}
	if l.dims == 0 {
		l.dims = DefaultLocalDimensions
	}
	if l.maxTexts == 0 {
		l.maxTexts = DefaultMaxTexts
	}
	if l.maxBytes == 0 {
		l.maxBytes = DefaultMaxTextBytes
	}
	if l.dims < 8 || l.dims > 1<<16 || l.maxTexts < 0 || l.maxBytes < 0 {
		return nil, &Error{Kind: KindConfiguration, Op: "embed", Provider: "local", Model: LocalModelID,
			Message: "Dimensions must be in [8, 65536]; MaxTexts and MaxTextBytes must not be negative"}
	}
	return l, nil
}

// Model returns LocalModelID.
func (l *LocalEmbedder) Model() string { return LocalModelID }

// Nature returns retrieval.EmbedderLexical: the vectors hash the text's own
// identifier tokens and character 3-grams, so two texts are similar only
// when they share words or parts of words (retrieval.NatureReporter).
func (l *LocalEmbedder) Nature() string { return retrieval.EmbedderLexical }

// Dimensions returns the vector length.
func (l *LocalEmbedder) Dimensions() int { return l.dims }

// Embed implements retrieval.Embedder: it returns the vectors of
// [LocalEmbedder.EmbedDetailed], one per text in input order, with the same
// errors.
func (l *LocalEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	return vectorsOf(l.EmbedDetailed(ctx, texts))
}

// EmbedDetailed embeds texts and also reports the token usage (identifier
// tokens). texts must be non-empty, every text non-empty and at most
// MaxTextBytes, at most MaxTexts of them (KindConfiguration otherwise). It
// checks ctx between texts.
func (l *LocalEmbedder) EmbedDetailed(ctx context.Context, texts []string) (*Embeddings, error) {
	if err := checkTexts(texts, l.maxTexts, l.maxBytes); err != nil {
		err.Provider, err.Model = "local", LocalModelID
		return nil, err
	}
	out := &Embeddings{Provider: "local", Model: LocalModelID, Dimensions: l.dims, Vectors: make([][]float32, len(texts))}
	h := hasher{dims: l.dims}
	// One backing array for all vectors; each vector is capped so an append
	// by the caller cannot run into its neighbour.
	backing := make([]float32, len(texts)*l.dims)
	for i, t := range texts {
		if i%32 == 0 {
			if err := ctx.Err(); err != nil {
				pe := contextError(err, "embed")
				pe.Provider, pe.Model = "local", LocalModelID
				return nil, pe
			}
		}
		vec := backing[i*l.dims : (i+1)*l.dims : (i+1)*l.dims]
		n := h.embed(t, vec)
		out.Vectors[i] = vec
		out.Usage.PromptTokens += int64(n)
	}
	out.Usage.TotalTokens = out.Usage.PromptTokens
	return out, nil
}

// hasher holds scratch buffers for one goroutine.
type hasher struct {
	dims int
	acc  []float32
	tok  []byte
	buf  []byte
	pad  []byte
}

const (
	nsToken   = 't'
	nsTrigram = 'g'
	nsWhole   = 'w'
)

// embed writes the normalised vector of text into vec and returns the number
// of identifier tokens.
func (h *hasher) embed(text string, vec []float32) int {
	h.acc = vec[:h.dims]
	clear(h.acc)
	ntok := 0
	forEachToken(text, &h.tok, func(tok []byte) {
		ntok++
		h.add(nsToken, tok, 1)
		h.trigrams(tok)
	})
	if ntok == 0 {
		h.add(nsWhole, []byte(text), 1)
	}
	// Components are sums of ±1 and ±0.5, exact in float32 (far below
	// 2^24 features); their squares and the sum are exact in float64. The
	// explicit conversions also stop the compiler from fusing multiply-add
	// (arm64, ppc64, s390x), so the vector is bit-identical everywhere.
	var sum float64
	for _, v := range h.acc {
		f := float64(v)
		sum += float64(f * f)
	}
	if sum == 0 { // every feature cancelled out; fall back to the whole text
		h.add(nsWhole, []byte(text), 1)
		sum = 1
	}
	inv := 1 / math.Sqrt(sum)
	for i, v := range h.acc {
		vec[i] = float32(float64(v) * inv)
	}
	return ntok
}

func (h *hasher) add(ns byte, feat []byte, w float32) {
	h.buf = append(append(h.buf[:0], ns, ':'), feat...)
	x := xxhash.Sum64(h.buf)
	// Component: the low 32 bits mapped onto [0, dims) by multiply-shift
	// (Lemire's range reduction, no division). Sign: the top bit.
	i := (x & 0xffffffff) * uint64(h.dims) >> 32
	if x>>63 != 0 {
		w = -w
	}
	h.acc[i] += w
}

// trigrams adds the character 3-grams of "^tok$" (by rune).
func (h *hasher) trigrams(tok []byte) {
	// boundaries: positions of rune starts in the padded token
	var starts [3]int // sliding window of rune start offsets
	h.pad = append(append(append(h.pad[:0], '^'), tok...), '$')
	padded := h.pad
	n := 0
	for off := 0; off < len(padded); {
		_, size := utf8.DecodeRune(padded[off:])
		if n >= 2 {
			h.add(nsTrigram, padded[starts[(n-2)%3]:off+size], 0.5)
		}
		starts[n%3] = off
		n++
		off += size
	}
}

type runeClass uint8

const (
	clsOther runeClass = iota
	clsLower
	clsUpper
	clsDigit
)

func classOf(r rune) runeClass {
	switch {
	case r < utf8.RuneSelf:
		switch {
		case 'a' <= r && r <= 'z':
			return clsLower
		case 'A' <= r && r <= 'Z':
			return clsUpper
		case '0' <= r && r <= '9':
			return clsDigit
		}
		return clsOther
	case unicode.IsUpper(r) || unicode.IsTitle(r):
		return clsUpper
	case unicode.IsLetter(r):
		return clsLower
	case unicode.IsDigit(r):
		return clsDigit
	}
	return clsOther
}

// forEachToken splits text into lowercased identifier tokens and calls fn
// with each (the slice is reused; fn must not retain it).
//
// Boundaries: non letter/digit runes; lower→Upper ("fooBar"); the last
// upper of an upper run followed by a lower ("HTTPServer" → HTTP, Server);
// letter↔digit.
func forEachToken(text string, scratch *[]byte, fn func([]byte)) {
	tok := (*scratch)[:0]
	prev := clsOther
	flush := func() {
		if len(tok) > 0 {
			fn(tok)
			tok = tok[:0]
		}
	}
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		c := classOf(r)
		if c == clsOther {
			flush()
			prev = clsOther
			i += size
			continue
		}
		switch {
		case prev == clsLower && c == clsUpper,
			prev == clsDigit && c != clsDigit,
			prev != clsDigit && prev != clsOther && c == clsDigit:
			flush()
		case prev == clsUpper && c == clsLower && len(tok) > 0:
			// "HTTPServer": the upper before this lower starts a new word,
			// unless it is the only rune of the token so far ("Server").
			lastStart := len(tok) - 1
			for lastStart > 0 && !utf8.RuneStart(tok[lastStart]) {
				lastStart--
			}
			if lastStart > 0 {
				var hb [utf8.UTFMax]byte
				head := append(hb[:0], tok[lastStart:]...)
				tok = tok[:lastStart]
				flush()
				tok = append(tok, head...)
			}
		}
		if c == clsUpper {
			tok = utf8.AppendRune(tok, unicode.ToLower(r))
		} else {
			tok = utf8.AppendRune(tok, r)
		}
		prev = c
		i += size
	}
	flush()
	*scratch = tok
}
