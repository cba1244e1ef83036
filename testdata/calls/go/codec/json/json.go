// Package json is a stand-in for encoding/json.
package json

// Unmarshal decodes b into v.
func Unmarshal(b []byte, v any) error { return nil }

// Decoder reads values from a stream.
type Decoder struct{}

// NewDecoder returns a Decoder.
func NewDecoder() *Decoder { return &Decoder{} }

// Decode reads the next value.
func (d *Decoder) Decode(v any) error { return Unmarshal(nil, v) }
