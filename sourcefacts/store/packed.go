package store

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"
	"unique"

	"github.com/rlm-dev/rlm/sourcefacts"
)

// packedFacts are one file's extracted facts held until they are
// published, encoded: a check extracts every changed file before it
// publishes them in one transaction, and a tree's facts as Go values (a
// Reference is 168 bytes before its strings) are several times their
// encoding — 195 MB of live heap for GOROOT/src's 916k references and
// 237k definitions. writeFile decodes one file's at a time.
//
// The encoding is packVersion, then every field of the FileFacts in
// declaration order (nested structs and slice elements alike): a string
// as its length (uvarint) and bytes, an int as a varint, a bool as one
// byte, a slice as its length (uvarint) and elements. It replaced
// encoding/gob, whose decoder compiled the types again for every file: the
// publish, one goroutine, spent 0.9 s of a cold GOROOT/src build decoding.
type packedFacts []byte

const packVersion = 1

// errPacked is the error of packed facts that do not decode.
var errPacked = errors.New("store: unpack facts: damaged")

var packBufs = sync.Pool{New: func() any { b := make([]byte, 0, 64<<10); return &b }}

// packFacts encodes ff.
func packFacts(ff *sourcefacts.FileFacts) (packedFacts, error) {
	bp := packBufs.Get().(*[]byte)
	w := packer{b: (*bp)[:0]}
	w.b = append(w.b, packVersion)
	pv := &ff.Provenance
	w.str(pv.Project)
	w.str(pv.Path)
	w.uint(pv.Hash.XXH64)
	w.int(pv.Hash.Len)
	w.int(pv.Generation)
	w.str(pv.Parser)
	w.str(pv.Grammar)
	w.str(pv.GrammarVersion)
	w.str(pv.Extractor)
	w.str(pv.LanguageBy)
	w.str(ff.Language)
	w.str(ff.Role)
	w.bool(ff.Test)
	w.str(ff.Status)
	w.str(ff.Error)
	w.str(ff.Package)
	w.uint(uint64(len(ff.Symbols)))
	for i := range ff.Symbols {
		y := &ff.Symbols[i]
		w.str(y.Name)
		w.str(y.Kind)
		w.str(y.Receiver)
		w.str(y.Container)
		w.str(y.Signature)
		w.str(y.Doc)
		w.str(y.Type)
		w.rng(y.Range)
		w.rng(y.NameRange)
		w.str(y.Role)
	}
	w.uint(uint64(len(ff.References)))
	for i := range ff.References {
		f := &ff.References[i]
		w.str(f.Name)
		w.str(f.Kind)
		w.str(f.Receiver)
		w.int(int64(f.Enclosing))
		w.rng(f.Range)
		w.str(f.Via)
		w.str(f.Module)
		w.str(f.Type)
		w.str(f.Path)
	}
	w.uint(uint64(len(ff.Imports)))
	for i := range ff.Imports {
		im := &ff.Imports[i]
		w.str(im.Path)
		w.str(im.Alias)
		w.rng(im.Range)
	}
	out := packedFacts(append([]byte(nil), w.b...))
	if cap(w.b) <= 1<<20 { // keep no huge buffer
		*bp = w.b
		packBufs.Put(bp)
	}
	return out, nil
}

type packer struct{ b []byte }

func (w *packer) str(s string) {
	w.b = binary.AppendUvarint(w.b, uint64(len(s)))
	w.b = append(w.b, s...)
}
func (w *packer) uint(v uint64) { w.b = binary.AppendUvarint(w.b, v) }
func (w *packer) int(v int64)   { w.b = binary.AppendVarint(w.b, v) }
func (w *packer) bool(v bool) {
	if v {
		w.b = append(w.b, 1)
	} else {
		w.b = append(w.b, 0)
	}
}
func (w *packer) rng(r sourcefacts.Range) {
	for _, v := range [...]int{r.StartByte, r.EndByte, r.StartLine, r.EndLine, r.StartCol, r.EndCol} {
		w.int(int64(v))
	}
}

// unpacker reads what packer wrote; its strings are substrings of one
// copy of the packed bytes. The first fault sticks in bad.
type unpacker struct {
	b   []byte
	s   string // b as a string
	i   int
	bad bool
}

func (u *unpacker) uint() uint64 {
	v, n := binary.Uvarint(u.b[min(u.i, len(u.b)):])
	if n <= 0 {
		u.bad, u.i = true, len(u.b)
		return 0
	}
	u.i += n
	return v
}

func (u *unpacker) int() int64 {
	v, n := binary.Varint(u.b[min(u.i, len(u.b)):])
	if n <= 0 {
		u.bad, u.i = true, len(u.b)
		return 0
	}
	u.i += n
	return v
}

func (u *unpacker) intv() int {
	v := u.int()
	if v < math.MinInt || v > math.MaxInt {
		u.bad = true
	}
	return int(v)
}

func (u *unpacker) str() string {
	n := u.uint()
	if n > uint64(len(u.b)-u.i) {
		u.bad, u.i = true, len(u.b)
		return ""
	}
	s := u.s[u.i : u.i+int(n)]
	u.i += int(n)
	return s
}

func (u *unpacker) bool() bool {
	if u.i >= len(u.b) || u.b[u.i] > 1 {
		u.bad, u.i = true, len(u.b)
		return false
	}
	u.i++
	return u.b[u.i-1] == 1
}

func (u *unpacker) rng() sourcefacts.Range {
	return sourcefacts.Range{StartByte: u.intv(), EndByte: u.intv(), StartLine: u.intv(), EndLine: u.intv(), StartCol: u.intv(), EndCol: u.intv()}
}

// count reads a slice length, bounded by the bytes left (every element
// takes at least min of them).
func (u *unpacker) count(min int) int {
	n := u.uint()
	if n > uint64((len(u.b)-u.i)/min) {
		u.bad, u.i = true, len(u.b)
		return 0
	}
	return int(n)
}

// unpack decodes the facts p holds: ff's values, except that an empty
// slice of facts comes back nil.
func (p packedFacts) unpack() (*sourcefacts.FileFacts, error) {
	if len(p) == 0 || p[0] != packVersion {
		return nil, errPacked
	}
	u := &unpacker{b: p, s: string(p), i: 1}
	ff := &sourcefacts.FileFacts{}
	pv := &ff.Provenance
	pv.Project = u.str()
	pv.Path = u.str()
	pv.Hash.XXH64 = u.uint()
	pv.Hash.Len = u.int()
	pv.Generation = u.int()
	pv.Parser = u.str()
	pv.Grammar = u.str()
	pv.GrammarVersion = u.str()
	pv.Extractor = u.str()
	pv.LanguageBy = u.str()
	ff.Language = u.str()
	ff.Role = u.str()
	ff.Test = u.bool()
	ff.Status = u.str()
	ff.Error = u.str()
	ff.Package = u.str()
	if n := u.count(20); n > 0 {
		ff.Symbols = make([]sourcefacts.Symbol, n)
		for i := range ff.Symbols {
			y := &ff.Symbols[i]
			y.Name = u.str()
			y.Kind = u.str()
			y.Receiver = u.str()
			y.Container = u.str()
			y.Signature = u.str()
			y.Doc = u.str()
			y.Type = u.str()
			y.Range = u.rng()
			y.NameRange = u.rng()
			y.Role = u.str()
		}
	}
	if n := u.count(14); n > 0 {
		ff.References = make([]sourcefacts.Reference, n)
		for i := range ff.References {
			f := &ff.References[i]
			f.Name = u.str()
			f.Kind = u.str()
			f.Receiver = u.str()
			f.Enclosing = u.intv()
			f.Range = u.rng()
			f.Via = u.str()
			f.Module = u.str()
			f.Type = u.str()
			f.Path = u.str()
		}
	}
	if n := u.count(8); n > 0 {
		ff.Imports = make([]sourcefacts.Import, n)
		for i := range ff.Imports {
			im := &ff.Imports[i]
			im.Path = u.str()
			im.Alias = u.str()
			im.Range = u.rng()
		}
	}
	if u.bad || u.i != len(u.b) {
		return nil, fmt.Errorf("%w (%d of %d bytes read)", errPacked, u.i, len(u.b))
	}
	return ff, nil
}

// newCand is the publish candidate of the facts ff extracted from the
// bytes o observed.
func newCand(o obs, ff *sourcefacts.FileFacts) (*cand, error) {
	p, err := packFacts(ff)
	if err != nil {
		return nil, err
	}
	return &cand{obs: o, facts: p}, nil
}

// heldFacts are the packed facts a publish wrote for one file, with the
// row values that identify what it wrote (see SnapshotOptions.HoldFacts).
type heldFacts struct {
	facts             packedFacts
	hash              sourcefacts.ContentHash
	fileGen, parseGen int64
	gen               int64 // the project generation that wrote them
}

// matches reports whether f is the row written with h: the same bytes,
// file and parse generation, by the same project generation. A row any
// other publish wrote since (another process) reads from the database.
func (h heldFacts) matches(f *FileState) bool {
	return f.Hash == h.hash && f.FileGeneration == h.fileGen && f.ParseGeneration == h.parseGen && f.PublishedIn == h.gen
}

// unpackInto sets ff's Symbols, References and Imports to the facts p
// holds, as Snapshot.Facts reads them from the database: every slice
// non-nil with no spare capacity, the text columns Facts interns
// interned (unique.Make), signatures and docs copies of their own, so
// nothing a caller keeps holds on to the file's whole decoded copy.
// Facts packed for another path than path (a row of another file's, by
// their Provenance.Path; "" only in a row a schema 6 upgrade wrote before
// it stamped the path) are errPacked: they decode, but they are not
// path's. path "" checks nothing (facts this process holds).
func (p packedFacts) unpackInto(path string, ff *sourcefacts.FileFacts) error {
	u, err := p.unpack()
	if err != nil {
		return err
	}
	if got := u.Provenance.Path; path != "" && got != "" && got != path {
		return fmt.Errorf("%w: packed for %q", errPacked, got)
	}
	in := func(s string) string { return unique.Make(s).Value() }
	ff.Symbols = make([]sourcefacts.Symbol, len(u.Symbols))
	for i, y := range u.Symbols {
		y.Name, y.Kind, y.Receiver, y.Container = in(y.Name), in(y.Kind), in(y.Receiver), in(y.Container)
		y.Signature, y.Doc = strings.Clone(y.Signature), strings.Clone(y.Doc)
		y.Role, y.Type = in(y.Role), in(y.Type)
		ff.Symbols[i] = y
	}
	ff.References = make([]sourcefacts.Reference, len(u.References))
	for i, r := range u.References {
		r.Name, r.Kind, r.Receiver = in(r.Name), in(r.Kind), in(r.Receiver)
		r.Via, r.Module, r.Type, r.Path = in(r.Via), in(r.Module), in(r.Type), in(r.Path)
		ff.References[i] = r
	}
	ff.Imports = make([]sourcefacts.Import, len(u.Imports))
	for i, im := range u.Imports {
		im.Path, im.Alias = in(im.Path), in(im.Alias)
		ff.Imports[i] = im
	}
	return nil
}
