package prompt

import (
	"fmt"
	"strings"
	"sync"

	"github.com/cespare/xxhash/v2"
	"github.com/tiktoken-go/tokenizer"
)

// Encoding is a tokenizer encoding of github.com/tiktoken-go/tokenizer
// (offline: the vocabularies are compiled into the binary).
type Encoding string

// The encodings the compiler counts with.
const (
	O200kBase  Encoding = "o200k_base"  // gpt-4o, gpt-4.1, gpt-4.5, gpt-5, o1/o3/o4, gpt-oss
	Cl100kBase Encoding = "cl100k_base" // gpt-4, gpt-3.5 and every model not known to use o200k_base
)

// o200kPrefixes are the model-name prefixes that use o200k_base.
var o200kPrefixes = []string{"gpt-4o", "chatgpt-4o", "gpt-4.1", "gpt-4.5", "gpt-5", "gpt-oss", "o1", "o3", "o4"}

// EncodingFor returns the encoding token costs are counted with for a
// model: O200kBase for gpt-4o, gpt-4.1, gpt-4.5, gpt-5, the o-series
// (o1, o3, o4) and gpt-oss, with or without a provider prefix
// ("openai/gpt-4o") or a suffix ("gpt-4o-mini", "o3-2025-04-16");
// Cl100kBase for gpt-4, gpt-3.5 and every other or unknown model
// (including ""). Case is ignored.
func EncodingFor(model string) Encoding {
	m := strings.ToLower(strings.TrimSpace(model))
	if i := strings.LastIndexByte(m, '/'); i >= 0 {
		m = m[i+1:]
	}
	for _, p := range o200kPrefixes {
		if m == p || strings.HasPrefix(m, p+"-") || strings.HasPrefix(m, p+".") {
			return O200kBase
		}
	}
	return Cl100kBase
}

// codecs holds one codec per encoding, built on first use (a codec is
// immutable after construction and safe for concurrent counting).
var codecs = map[Encoding]func() (tokenizer.Codec, error){
	O200kBase:  sync.OnceValues(func() (tokenizer.Codec, error) { return tokenizer.Get(tokenizer.O200kBase) }),
	Cl100kBase: sync.OnceValues(func() (tokenizer.Codec, error) { return tokenizer.Get(tokenizer.Cl100kBase) }),
}

// tokenMemo keeps token counts by encoding and content identity (XXH64
// and length of the exact bytes, as content hashes are everywhere in rlm):
// the same evidence, unit or rendered text is counted once. At most
// tokenMemoSize counts; when full it starts again empty.
var tokenMemo = struct {
	sync.Mutex
	counts map[tokenKey]int
}{counts: map[tokenKey]int{}}

type tokenKey struct {
	enc  Encoding
	hash uint64
	n    int
}

const (
	tokenMemoSize = 4096
	// tokenMemoMin: shorter texts are counted every time (hashing them
	// costs about as much).
	tokenMemoMin = 64
)

// countTokens returns the number of tokens of s in encoding enc.
func countTokens(enc Encoding, s string) (int, error) {
	if len(s) < tokenMemoMin {
		return countTokensNow(enc, s)
	}
	k := tokenKey{enc: enc, hash: xxhash.Sum64String(s), n: len(s)}
	tokenMemo.Lock()
	n, ok := tokenMemo.counts[k]
	tokenMemo.Unlock()
	if ok {
		return n, nil
	}
	n, err := countTokensNow(enc, s)
	if err != nil {
		return 0, err
	}
	tokenMemo.Lock()
	if len(tokenMemo.counts) >= tokenMemoSize {
		clear(tokenMemo.counts)
	}
	tokenMemo.counts[k] = n
	tokenMemo.Unlock()
	return n, nil
}

// countTokensNow counts s with the tokenizer.
func countTokensNow(enc Encoding, s string) (int, error) {
	get, ok := codecs[enc]
	if !ok {
		return 0, fmt.Errorf("prompt: no tokenizer for encoding %q", enc)
	}
	c, err := get()
	if err != nil {
		return 0, fmt.Errorf("prompt: tokenizer %s: %w", enc, err)
	}
	n, err := c.Count(s)
	if err != nil {
		return 0, fmt.Errorf("prompt: counting tokens (%s): %w", enc, err)
	}
	return n, nil
}
