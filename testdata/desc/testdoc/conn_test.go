package depot

import "testing"

// Test that Ship invokes Weigh.
func TestShipCallsWeigh(t *testing.T) { Ship() }

func TestLoggingConnWrites(t *testing.T) {
	c := newLoggingConn("x")
	c.Write(nil)
}
