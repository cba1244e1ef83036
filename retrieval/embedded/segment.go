package embedded

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"

	"github.com/cespare/xxhash/v2"
)

// segment holds the 7-bit codes (quant.go) of a set of vectors, one row per
// vector in ascending doc rid order. A base segment is written to a file
// beside the database (segmentFile) and read back memory-mapped; a delta
// segment lives on the heap.
type segment struct {
	gen    int64 // the vector generation whose vectors this base holds; -1: none
	stride int   // bytes of codes per row: paddedDims(dims)
	rids   []int64
	scales []float32
	sums   []int32
	codes  []byte // row i is codes[i*stride : (i+1)*stride]; may be a file mapping
	size   int64  // bytes of the file, 0 on the heap
}

func (s *segment) len() int { return len(s.rids) }

func (s *segment) row(i int) []byte { return s.codes[i*s.stride : (i+1)*s.stride] }

// add appends the codes of the unit vector u with doc rid rid.
func (s *segment) add(rid int64, u []float32) {
	k := len(s.codes)
	s.codes = append(s.codes, make([]byte, s.stride)...)
	sc, sum := quantize(s.codes[k:], u)
	s.rids = append(s.rids, rid)
	s.scales = append(s.scales, sc)
	s.sums = append(s.sums, sum)
}

// appendRow appends row i of t.
func (s *segment) appendRow(t *segment, i int) {
	s.rids = append(s.rids, t.rids[i])
	s.scales = append(s.scales, t.scales[i])
	s.sums = append(s.sums, t.sums[i])
	s.codes = append(s.codes, t.row(i)...)
}

// Base segment file layout, little-endian:
//
//	offset 0   magic "RLMVQ7\x00\x01" (8 bytes)
//	       8   dims uint32, 12 stride uint32
//	       16  gen int64, 24 count uint64
//	       32  XXH64 of the model id, 40 the database's vector store uid (16 bytes)
//	       56  XXH64 of bytes 0..55 and of the rids, scales and sums
//	       64  rids [count]int64, scales [count]float32, sums [count]int32,
//	           codes [count*stride]byte
//
// The checksum covers everything but the codes, so that opening a file
// does not read its largest part: a damaged code can only make a vector a
// worse or better candidate, and candidates are re-ranked from the stored
// vectors (vector.go), so it never changes a returned score.
const (
	segmentMagic  = "RLMVQ7\x00\x01"
	segmentHeader = 64
)

// segmentKey identifies the vectors a base file belongs to.
type segmentKey struct {
	model string
	dims  int
	uid   string // vector_store.uid of the database
}

// segmentFile is the base file of model and dims beside the database at
// dbPath: dbPath + "-vq-" + 16 hex digits of XXH64(model "\x00" dims).
func segmentFile(dbPath, model string, dims int) string {
	return fmt.Sprintf("%s-vq-%016x", dbPath, xxhash.Sum64String(fmt.Sprintf("%s\x00%d", model, dims)))
}

// SidecarFiles lists the files the backend keeps beside the database at
// dbPath (the quantised vector bases of its models, see the package doc):
// removing a database file should remove them too. A missing one is
// rebuilt by the next vector search.
func SidecarFiles(dbPath string) []string {
	m, _ := filepath.Glob(escapeGlob(dbPath) + "-vq-*")
	return m
}

// escapeGlob quotes the glob metacharacters of a literal path.
func escapeGlob(p string) string {
	out := make([]byte, 0, len(p))
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case '*', '?', '[', '\\':
			out = append(out, '\\')
		}
		out = append(out, p[i])
	}
	return string(out)
}

func (s *segment) header(k segmentKey, dims int) []byte {
	h := make([]byte, segmentHeader)
	copy(h, segmentMagic)
	binary.LittleEndian.PutUint32(h[8:], uint32(dims))
	binary.LittleEndian.PutUint32(h[12:], uint32(s.stride))
	binary.LittleEndian.PutUint64(h[16:], uint64(s.gen))
	binary.LittleEndian.PutUint64(h[24:], uint64(s.len()))
	binary.LittleEndian.PutUint64(h[32:], xxhash.Sum64String(k.model))
	copy(h[40:56], k.uid)
	return h
}

// meta encodes the rids, scales and sums.
func (s *segment) meta() []byte {
	n := s.len()
	b := make([]byte, 16*n)
	for i := range n {
		binary.LittleEndian.PutUint64(b[8*i:], uint64(s.rids[i]))
		binary.LittleEndian.PutUint32(b[8*n+4*i:], math.Float32bits(s.scales[i]))
		binary.LittleEndian.PutUint32(b[12*n+4*i:], uint32(s.sums[i]))
	}
	return b
}

// writeSegment writes s to path atomically: a temporary file in the same
// directory, synced, renamed over path.
func writeSegment(path string, s *segment, k segmentKey, dims int) (err error) {
	h, meta := s.header(k, dims), s.meta()
	d := xxhash.New()
	d.Write(h[:56])
	d.Write(meta)
	binary.LittleEndian.PutUint64(h[56:], d.Sum64())
	f, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	for _, part := range [][]byte{h, meta, s.codes} {
		if _, err = f.Write(part); err != nil {
			return err
		}
	}
	if err = f.Sync(); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}

// errBadSegment marks a base file that is not a valid segment of the
// expected vectors; the caller rebuilds it.
var errBadSegment = errors.New("invalid vector base file")

// readSegment maps the base file at path and validates it against k and
// dims. The codes stay in the mapping, which is released when the segment
// is no longer reachable; everything else is decoded and checked.
func readSegment(path string, k segmentKey, dims int) (*segment, error) {
	data, unmap, err := mapFile(path)
	if err != nil {
		return nil, err
	}
	s, err := decodeSegment(data, k, dims)
	if err != nil {
		unmap()
		return nil, fmt.Errorf("%s: %w", filepath.Base(path), err)
	}
	runtime.AddCleanup(s, func(f func()) { f() }, unmap)
	return s, nil
}

func decodeSegment(data []byte, k segmentKey, dims int) (*segment, error) {
	bad := func(format string, a ...any) error {
		return fmt.Errorf("%w: %s", errBadSegment, fmt.Sprintf(format, a...))
	}
	if len(data) < segmentHeader || string(data[:8]) != segmentMagic {
		return nil, bad("no header")
	}
	h := data[:segmentHeader]
	stride := int(binary.LittleEndian.Uint32(h[12:]))
	n := binary.LittleEndian.Uint64(h[24:])
	switch {
	case int(binary.LittleEndian.Uint32(h[8:])) != dims || stride != paddedDims(dims):
		return nil, bad("dimensions %d (stride %d), want %d", binary.LittleEndian.Uint32(h[8:]), stride, dims)
	case binary.LittleEndian.Uint64(h[32:]) != xxhash.Sum64String(k.model) || string(h[40:56]) != k.uid:
		return nil, bad("of another model or database")
	case n > uint64(len(data)) || uint64(len(data)) != segmentHeader+n*uint64(16+stride):
		return nil, bad("%d bytes for %d vectors of stride %d", len(data), n, stride)
	}
	meta := data[segmentHeader : segmentHeader+16*n]
	d := xxhash.New()
	d.Write(h[:56])
	d.Write(meta)
	if d.Sum64() != binary.LittleEndian.Uint64(h[56:]) {
		return nil, bad("checksum mismatch")
	}
	s := &segment{gen: int64(binary.LittleEndian.Uint64(h[16:])), stride: stride,
		rids: make([]int64, n), scales: make([]float32, n), sums: make([]int32, n),
		codes: data[segmentHeader+16*n:], size: int64(len(data))}
	for i := range s.rids {
		s.rids[i] = int64(binary.LittleEndian.Uint64(meta[8*i:]))
		s.scales[i] = math.Float32frombits(binary.LittleEndian.Uint32(meta[8*int(n)+4*i:]))
		s.sums[i] = int32(binary.LittleEndian.Uint32(meta[12*int(n)+4*i:]))
		if i > 0 && s.rids[i] <= s.rids[i-1] {
			return nil, bad("rids out of order at row %d", i)
		}
		if sc := float64(s.scales[i]); !(sc > 0) || math.IsInf(sc, 0) {
			return nil, bad("scale %v at row %d", s.scales[i], i)
		}
	}
	return s, nil
}
