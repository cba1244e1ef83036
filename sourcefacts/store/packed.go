package store

import (
	"bytes"
	"encoding/gob"
	"fmt"

	"github.com/rlm-dev/rlm/sourcefacts"
)

// packedFacts are one file's extracted facts held until they are
// published, encoded (encoding/gob): a check extracts every changed file
// before it publishes them in one transaction, and a tree's facts as Go
// values (a Reference is 168 bytes before its strings) are several times
// their encoding — 195 MB of live heap for GOROOT/src's 916k references
// and 237k definitions. writeFile decodes one file's at a time.
type packedFacts []byte

// packFacts encodes ff.
func packFacts(ff *sourcefacts.FileFacts) (packedFacts, error) {
	var b bytes.Buffer
	if err := gob.NewEncoder(&b).Encode(ff); err != nil {
		return nil, fmt.Errorf("store: pack the facts of %s: %w", ff.Provenance.Path, err)
	}
	return bytes.Clone(b.Bytes()), nil
}

// unpack decodes the facts p holds: ff's values, except that an empty
// slice of facts comes back nil.
func (p packedFacts) unpack() (*sourcefacts.FileFacts, error) {
	ff := &sourcefacts.FileFacts{}
	if err := gob.NewDecoder(bytes.NewReader(p)).Decode(ff); err != nil {
		return nil, fmt.Errorf("store: unpack facts: %w", err)
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
