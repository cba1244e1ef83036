package project

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/cespare/xxhash/v2"

	"github.com/rlm-dev/rlm/retrieval"
	"github.com/rlm-dev/rlm/sourcefacts/store"
)

// VectorFailure records, beside the knowledge base (vectorFailureFile),
// that the search index of one snapshot could not get its vectors from one
// embedder, so that later processes open that snapshot's index without
// vectors at once (vector and hybrid steps report Note; the rules fall
// back to BM25) instead of running the embedder over the whole tree again.
// They try again once the project's retry interval (Options.
// RetryVectorsAfter) has passed since At, for another snapshot, or for an
// embedder whose Embedder identity differs. A build with vectors removes
// the record.
type VectorFailure struct {
	Generation  int64  `json:"generation"`
	Fingerprint uint64 `json:"fingerprint"`
	// Embedder is the embedder's declared identity, known without calling
	// it: "<model>-<dimensions>-<16 hex digits of an XXH64 of its
	// endpoint>".
	Embedder string    `json:"embedder"`
	At       time.Time `json:"at"`
	// Note is the retrieval.UnavailableError's note; Reason the kind of
	// failure (a providers.Error's kind and HTTP status, or "error").
	// Neither holds an endpoint or a secret.
	Note   string `json:"note"`
	Reason string `json:"reason"`
}

// vectorFailureFile is the record's file name in the knowledge base's
// directory; one record, the latest failure.
const vectorFailureFile = "vectors-unavailable.json"

// declaredEmbedder is e's identity without calling it (VectorFailure.Embedder).
func declaredEmbedder(e retrieval.Embedder) string {
	ep := ""
	if x, ok := e.(Endpointer); ok {
		ep = x.Endpoint()
	}
	return fmt.Sprintf("%s-%d-%016x", unsafeName.ReplaceAllString(e.Model(), "_"), e.Dimensions(), xxhash.Sum64String(ep))
}

// retryAfter is the configured retry interval.
func (p *Project) retryAfter() time.Duration {
	if p.opts.RetryVectorsAfter > 0 {
		return p.opts.RetryVectorsAfter
	}
	return RetryVectorsAfter
}

func (p *Project) vectorFailurePath() string { return vectorFailurePath(p.st.DBPath()) }

// vectorFailurePath is the record's path beside the knowledge base at dbPath.
func vectorFailurePath(dbPath string) string {
	return filepath.Join(filepath.Dir(dbPath), vectorFailureFile)
}

// isFor reports whether f is the record of snapshot id with embedder e.
func (f *VectorFailure) isFor(id store.Identity, e retrieval.Embedder) bool {
	return f.Generation == id.Generation && f.Fingerprint == id.Fingerprint && f.Embedder == declaredEmbedder(e)
}

// readVectorFailure reads the record beside the knowledge base at dbPath;
// nil when there is none or it is unreadable (then the embedder is simply
// tried).
func readVectorFailure(dbPath string) *VectorFailure {
	b, err := os.ReadFile(vectorFailurePath(dbPath))
	if err != nil {
		return nil
	}
	var f VectorFailure
	if json.Unmarshal(b, &f) != nil {
		return nil
	}
	return &f
}

// recentVectorFailure is the record for snapshot id and the configured
// embedder if it is younger than the retry interval.
func (p *Project) recentVectorFailure(id store.Identity) *VectorFailure {
	if p.opts.Embedder == nil {
		return nil
	}
	f := readVectorFailure(p.st.DBPath())
	if f == nil || !f.isFor(id, p.opts.Embedder) || time.Since(f.At) >= p.retryAfter() {
		return nil
	}
	return f
}

// recordVectorFailure writes the record of ue for snapshot id (whole, by
// rename); a failure to write it only costs later processes a retry.
func (p *Project) recordVectorFailure(id store.Identity, ue *retrieval.UnavailableError, at time.Time) {
	f := VectorFailure{Generation: id.Generation, Fingerprint: id.Fingerprint, Embedder: declaredEmbedder(p.opts.Embedder),
		At: at.UTC(), Note: ue.Note, Reason: failure(ue.Err)}
	b, err := json.Marshal(f)
	if err != nil {
		return
	}
	path := p.vectorFailurePath()
	tmp, err := os.CreateTemp(filepath.Dir(path), vectorFailureFile+".*")
	if err != nil {
		return
	}
	_, werr := tmp.Write(b)
	if cerr := tmp.Close(); werr != nil || cerr != nil || os.Rename(tmp.Name(), path) != nil {
		os.Remove(tmp.Name())
	}
}

// clearVectorFailure removes the record of snapshot id and the configured
// embedder, once their index has its vectors.
func (p *Project) clearVectorFailure(id store.Identity) {
	f := readVectorFailure(p.st.DBPath())
	if f != nil && f.isFor(id, p.opts.Embedder) {
		os.Remove(p.vectorFailurePath())
	}
}

// Error says what failed and when, so that a recorded failure can be the
// cause of the retrieval.UnavailableError later processes report.
func (f *VectorFailure) Error() string {
	return fmt.Sprintf("vectors of generation %d with embedder %s failed at %s (%s)", f.Generation, f.Embedder, f.At.Format(time.RFC3339), f.Reason)
}
