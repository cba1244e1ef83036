package prompt

import (
	"encoding/json"
	"sync"

	"github.com/rlm-dev/rlm/retrieval"
)

// indexImages keeps the candidate indexes of small catalogs as database
// images (embedded.Backend.Image), by the exact documents they were built
// from: the completion loop builds an ephemeral catalog from the same tool
// registry on every run, and opening a copy of the image costs a fraction
// of writing and merging the index again. Each catalog still has an index
// of its own, released with it. Only catalogs of at most
// indexImageMaxUnits units are kept, at most indexImagesMax images; when
// full it starts again empty.
var indexImages = &imageCache{imgs: map[string][]byte{}}

const (
	indexImageMaxUnits = 64
	indexImagesMax     = 32
)

type imageCache struct {
	mu   sync.Mutex
	imgs map[string][]byte
	hits int // images opened (tests)
}

// indexImageKey is the exact JSON of docs, and whether a catalog of them
// is small enough to keep.
func indexImageKey(docs []retrieval.Document) (string, bool) {
	if len(docs) > indexImageMaxUnits {
		return "", false
	}
	b, err := json.Marshal(docs)
	if err != nil {
		return "", false
	}
	return string(b), true
}

func (c *imageCache) get(key string, keep bool) ([]byte, bool) {
	if !keep {
		return nil, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	img, ok := c.imgs[key]
	if ok {
		c.hits++
	}
	return img, ok
}

func (c *imageCache) put(key string, img []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.imgs) >= indexImagesMax {
		clear(c.imgs)
	}
	c.imgs[key] = img
}

func (c *imageCache) opened() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.hits
}
