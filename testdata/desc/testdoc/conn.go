package depot

// loggingConn is used for debugging.
type loggingConn struct{ name string }

func newLoggingConn(name string) *loggingConn { return &loggingConn{name: name} }

// Write records p under the connection's name.
func (c *loggingConn) Write(p []byte) (int, error) {
	debugging(c.name)
	return len(p), nil
}

func debugging(name string) {}

// Ship sends a parcel after weighing it.
func Ship() { Weigh() }

// Weigh measures a parcel.
func Weigh() {}
