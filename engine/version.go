package engine

import (
	"fmt"

	"github.com/cespare/xxhash/v2"
)

// Version is a hash of the loaded rule files (names and texts, in load
// order, tests excluded): two engines with the same Version run the same
// rules. 16 hex digits.
func (e *Engine) Version() string {
	d := xxhash.New()
	for _, s := range e.sources {
		d.WriteString(s.Name + "\x00" + s.Text + "\x00")
	}
	return fmt.Sprintf("%016x", d.Sum64())
}
