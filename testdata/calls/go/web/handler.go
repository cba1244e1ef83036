package web

import (
	"fmt"
	"strings"

	"example.com/shop/codec/json"
	x "example.com/shop/codec/xml"
)

func parseJSON(b []byte) error { return json.Unmarshal(b, nil) }

func parseXML(b []byte) error { return x.Unmarshal(b, nil) }

func readBody(r *Request) { r.Body.Read(nil) }

func readConn() {
	var c *conn
	c.Read(nil)
}

func readNewConn() {
	c := newConn()
	c.Read(nil)
}

// readAny calls Read through an interface: no definition's caller.
func readAny(rd interface{ Read([]byte) (int, error) }) { rd.Read(nil) }

func decode() {
	d := json.NewDecoder()
	d.Decode(nil)
}

func label(s string) string {
	if strings.HasPrefix(s, "x") {
		return fmt.Sprintf("<%s>", s)
	}
	return s
}
