package store

import (
	"bytes"
	"compress/flate"
	"errors"
	"fmt"
	"io"
	"sync"
)

// The facts table (schema 7) holds one row per file with facts: the
// file's packed facts (packedFacts: the encoding publish holds them in,
// Symbols, References and Imports in source order) in data, as storeFacts
// writes it. It replaced one row per fact in three tables and their four
// secondary indexes: 121 MB of GOROOT/src's 122.6 MB knowledge base, of
// which the refs_name, symbols_name and imports_path indexes served only
// Snapshot.Symbols, Callers and Importers, which no search uses (the
// search index answers those); they now read every file's row (see
// docs/BENCHMARKS.md, "Compact storage: the knowledge base's facts one
// row per file").
//
// data is one flags byte, then the packed facts, deflated (compress/flate,
// raw DEFLATE) when factsDeflate is set. Flags other than factsDeflate are
// errStored: a reader never guesses at bytes it did not write.
const factsDeflate = 1 << 0

// minDeflateFacts is the shortest packed facts worth trying to deflate.
const minDeflateFacts = 64

// errStored is the error of a facts.data value storeFacts never writes.
var errStored = errors.New("store: stored facts: damaged")

// factsWriters reuses DEFLATE compressors (each holds ≈ 1 MB of tables).
var factsWriters = sync.Pool{New: func() any {
	w, _ := flate.NewWriter(nil, flate.BestSpeed) // the level is valid: no error
	return w
}}

// factsReaders reuses DEFLATE decompressors.
var factsReaders = sync.Pool{New: func() any { return flate.NewReader(bytes.NewReader(nil)) }}

// storeFacts is the facts.data value of p: p deflated where that is
// shorter, else p as it is, after the flags byte.
func storeFacts(p packedFacts) []byte {
	if len(p) >= minDeflateFacts {
		var buf bytes.Buffer
		buf.Grow(len(p)/2 + 16)
		buf.WriteByte(factsDeflate)
		w := factsWriters.Get().(*flate.Writer)
		w.Reset(&buf)
		_, werr := w.Write(p)
		cerr := w.Close()
		factsWriters.Put(w)
		if werr == nil && cerr == nil && buf.Len() < 1+len(p) {
			return buf.Bytes()
		}
	}
	out := make([]byte, 0, 1+len(p))
	return append(append(out, 0), p...)
}

// loadFacts is the packed facts a facts.data value holds (storeFacts's
// inverse). A value of unknown flags or bad deflate data is errStored.
func loadFacts(data []byte) (packedFacts, error) {
	if len(data) == 0 {
		return nil, fmt.Errorf("%w: empty", errStored)
	}
	switch data[0] {
	case 0:
		return packedFacts(data[1:]), nil
	case factsDeflate:
		r := factsReaders.Get().(io.ReadCloser)
		defer factsReaders.Put(r)
		if err := r.(flate.Resetter).Reset(bytes.NewReader(data[1:]), nil); err != nil {
			return nil, fmt.Errorf("%w: %v", errStored, err)
		}
		var buf bytes.Buffer
		buf.Grow(3 * len(data))
		if _, err := buf.ReadFrom(r); err != nil {
			return nil, fmt.Errorf("%w: %v", errStored, err)
		}
		return packedFacts(buf.Bytes()), nil
	default:
		return nil, fmt.Errorf("%w: flags %#x", errStored, data[0])
	}
}
