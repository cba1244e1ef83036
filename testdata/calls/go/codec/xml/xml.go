// Package xml is a stand-in for encoding/xml: its Unmarshal has the same
// name as package json's.
package xml

// Unmarshal decodes b into v.
func Unmarshal(b []byte, v any) error { return nil }
