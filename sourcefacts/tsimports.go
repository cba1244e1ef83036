package sourcefacts

import (
	"cmp"
	"slices"
)

// addImports turns import candidates into x.ff.Imports by the grammar's
// imports hook, sorted by start: one candidate per path node, preferring
// one with an alias (`const x = require('m')` matches both require
// patterns).
func (x *extraction) addImports(imports []importCand) {
	ff := x.ff
	byPath := map[uint]int{}
	var cands []importCand
	for _, im := range imports {
		key := im.node.StartByte()
		if im.path != nil {
			key = im.path.StartByte()
		}
		if i, ok := byPath[key]; ok {
			if cands[i].alias == nil && im.alias != nil {
				cands[i] = im
			}
			continue
		}
		byPath[key] = len(cands)
		cands = append(cands, im)
	}
	for i := range cands {
		ff.Imports = append(ff.Imports, x.g.spec.imports(x, &cands[i])...)
	}
	slices.SortStableFunc(ff.Imports, func(a, b Import) int {
		return cmp.Compare(a.Range.StartByte, b.Range.StartByte)
	})
}
