package engine

import (
	"encoding/binary"
	"math"
	"reflect"

	pl "github.com/ichiban/prolog/engine"
)

// maxKeyDepth bounds the nesting AppendGroundKey follows.
const maxKeyDepth = 10000

// AppendGroundKey appends to dst a byte encoding of the ground term t that
// identifies it: two terms with equal encodings are the same term (same
// atoms, numbers, strings and compound structure), so a pure goal's answer
// can be memoised by the encodings of its arguments. Strings built with
// String are encoded by their text without being walked. It returns dst
// unchanged and false when t holds a variable, a term type other than
// atoms, integers, floats, strings and compounds, or nesting deeper than
// 10,000.
func AppendGroundKey(dst []byte, t Term) ([]byte, bool) {
	out, ok := appendKey(dst, t, 0)
	if !ok {
		return dst, false
	}
	return out, true
}

func appendKey(b []byte, t Term, depth int) ([]byte, bool) {
	if depth > maxKeyDepth {
		return b, false
	}
	switch v := t.(type) {
	case pl.Atom:
		return appendText(append(b, 'a'), v.String()), true
	case pl.Integer:
		return binary.AppendVarint(append(b, 'i'), int64(v)), true
	case pl.Float:
		return binary.LittleEndian.AppendUint64(append(b, 'f'), math.Float64bits(float64(v))), true
	case pl.Compound:
		if s, ok := backedText(v); ok {
			// charList and codeList are different terms ("ab" as chars
			// or as codes): the tag keeps them apart.
			tag := byte('s')
			if reflect.TypeOf(v).Name() == "codeList" {
				tag = 'k'
			}
			return appendText(append(b, tag), s), true
		}
		b = binary.AppendUvarint(append(b, 'c'), uint64(v.Arity()))
		b = appendText(b, v.Functor().String())
		for i := range v.Arity() {
			var ok bool
			if b, ok = appendKey(b, v.Arg(i), depth+1); !ok {
				return b, false
			}
		}
		return b, true
	}
	return b, false
}

func appendText(b []byte, s string) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}
