package sourcefacts

import (
	"context"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// resolved is how one call resolved: "via module type path" (empty
// parts kept, so that a dropped Module or Type shows).
func resolved(r Reference) string {
	return fmt.Sprintf("%s|%s|%s|%s", r.Via, r.Module, r.Type, r.Path)
}

// TestCallsResolveFromTheFilesOwnSyntax: each call says what its file's
// syntax shows about its callee — an import (and its alias), a declared
// receiver, parameter, variable or field type, the result a receiver
// comes from, the file's own scope, a local function value — and nothing
// it does not show (a receiver of unknown type, a name a local variable
// shadows, a builtin's).
func TestCallsResolveFromTheFilesOwnSyntax(t *testing.T) {
	e := newAllExtractor(t)
	tests := []struct {
		path, src string
		want      map[string]string // "line name" -> resolved(...)
	}{
		{"web/a.go", `package web

import (
	"encoding/json"
	xj "encoding/xml"
	"net/http"
	. "strings"
)

type body struct{}

func (b *body) Read(p []byte) (int, error) { return b.more(p) }

func use(r *http.Request, s string) {
	var b *body
	b.Read(nil)
	c := &body{}
	c.Read(nil)
	json.Unmarshal(nil, nil)
	xj.Unmarshal(nil, nil)
	r.Context()
	r.Header.Get("k")
	resp, err := http.Get(s)
	resp.Body.Close()
	f := func() {}
	f()
	helper()
	json := 3
	json.Unmarshal()
	unknown().Read()
	var x any = b
	switch v := x.(type) {
	case *body:
		v.Read(nil)
	case string, int:
		v.Read(nil)
	}
	for _, q := range []*body{b} {
		q.Read(nil)
	}
	if r, ok := x.(*body); ok {
		r.Read(nil)
	}
	_, e2 := http.Get(s)
	e2.Error()
	_ = err
}
`, map[string]string{
			"45 Error":     "receiver|net/http||Get()1",
			"12 more":      "receiver||body|",
			"16 Read":      "receiver||body|",
			"18 Read":      "receiver||body|",
			"19 Unmarshal": "import|encoding/json||",
			"20 Unmarshal": "import|encoding/xml||",
			"21 Context":   "receiver|net/http|Request|",
			"22 Get":       "receiver|net/http|Request|Header",
			"23 Get":       "import|net/http||",
			"24 Close":     "receiver|net/http||Get().Body",
			"26 f":         "local|||",
			"27 helper":    "scope|||",
			"29 Unmarshal": "|||",
			"30 Read":      "receiver|||unknown()",
			"30 unknown":   "scope|||",
			"34 Read":      "receiver||body|",
			"36 Read":      "|||",
			"39 Read":      "receiver||body|",
			"42 Read":      "receiver||body|",
		}},
		{"pkg/app.py", `import os.path
import xml.dom as xd
from .decoder import scanstring
from pkg.jsonlike import Decoder


def helper(x):
    pass


class Conn:
    def send(self, data):
        self.flush()
        helper(data)
        os.path.join("a", "b")
        xd.parse()
        scanstring(data)
        Conn.make()
        data.strip()
        d: Decoder = Decoder()
        d.decode()

    def flush(self):
        pass
`, map[string]string{
			"13 flush":      "receiver||Conn|",
			"14 helper":     "scope|||",
			"15 join":       "import|os|path|",
			"16 parse":      "import|xml.dom||",
			"17 scanstring": "import|.decoder||",
			"18 make":       "receiver||Conn|",
			"19 strip":      "|||",
			"21 decode":     "receiver|pkg.jsonlike|Decoder|",
		}},
		{"app.js", `import * as util from './util';
import { parse, format as fmt } from './parser';
const path = require('path');

function helper() {}

class Router {
  handle(req) {
    this.route(req);
    helper();
    parse(req);
    util.merge({});
    path.join('a');
    req.get('x');
    const r = new Router();
    r.route();
  }
  route() {}
}
`, map[string]string{
			"9 route":   "receiver||Router|",
			"10 helper": "scope|||",
			"11 parse":  "import|./parser||",
			"12 merge":  "import|./util||",
			"13 join":   "import|path||",
			"14 get":    "|||",
			"16 route":  "receiver||Router|",
		}},
		{"send.ts", `import { Conn } from './conn';
function send(c: Conn, d: string): void {
  c.write(d);
}
`, map[string]string{
			"3 write": "receiver|./conn|Conn|",
		}},
		{"com/acme/web/Router.java", `package com.acme.web;

import com.acme.util.Strings;

public class Router {
    private Conn conn;
    public void handle(Request req) {
        route(req);
        this.route(req);
        conn.write("x");
        Strings.trim("x");
        var h = new Helper();
        h.help();
        java.util.Collections.sort(null);
    }
    void route(Request r) {}
}
`, map[string]string{
			"8 route":  "scope||Router|",
			"9 route":  "receiver||Router|",
			"10 write": "receiver||Conn|",
			"11 trim":  "import|com.acme.util|Strings|",
			"13 help":  "receiver||Helper|",
			"14 sort":  "receiver|java.util|Collections|",
		}},
		{"src/server.rs", `use crate::conn::Conn;
struct Server;
impl Server {
    fn new() -> Self { Self::make() }
    fn make() -> Self { Server }
    fn serve(&self, x: &Conn, b: Box<Conn>) {
        self.accept();
        x.send();
        b.send();
        Conn::open();
    }
    fn accept(&self) {}
}
`, map[string]string{
			"4 make":   "receiver||Server|",
			"7 accept": "receiver||Server|",
			"8 send":   "receiver|crate::conn|Conn|",
			"9 send":   "|||",
			"10 open":  "import|crate::conn|Conn|",
		}},
		{"server.cpp", `#include "conn.h"
void Server::serve(Conn& c, Mail* m) {
  c.send();
  m->send();
  this->accept();
  Conn::open();
  conn_->send();
  std::sort(a, b);
}
`, map[string]string{
			"3 send":   "receiver||Conn|",
			"4 send":   "receiver||Mail|",
			"5 accept": "receiver||Server|",
			"6 open":   "receiver||Conn|",
			"7 send":   "|||",
			"8 sort":   "receiver||std|",
		}},
	}
	for _, tc := range tests {
		t.Run(tc.path, func(t *testing.T) {
			ff, err := e.Extract(context.Background(), tc.path, []byte(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			if ff.Status != StatusCurrent {
				t.Fatalf("status %s: %s", ff.Status, ff.Error)
			}
			got := map[string]string{}
			for _, r := range ff.References {
				k := fmt.Sprintf("%d %s", r.Range.StartLine, r.Name)
				if _, ok := tc.want[k]; ok && r.Kind == RefCall {
					got[k] = resolved(r)
				}
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("calls (-want +got):\n%s", d)
			}
		})
	}
}

// TestDeclarationsWriteTheirTypes: Symbol.Type is the type a Go
// declaration writes — a field's, a variable's, a function's results, an
// alias's target, a named slice's — which Scopes follows.
func TestDeclarationsWriteTheirTypes(t *testing.T) {
	e := newAllExtractor(t)
	ff, err := e.Extract(context.Background(), "a.go", []byte(`package a

import "net/http"

type T struct {
	R   *http.Request
	n   int
	*Embedded
}

type A = http.Header
type List []*T

var V = &T{}
var W http.Header

func F() (*T, error) { return nil, nil }
func (t *T) M() T { return *t }
`))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, y := range ff.Symbols {
		got[y.Qualified()] = y.Type
	}
	want := map[string]string{"T": "", "R": "*http.Request", "n": "int", "Embedded": "Embedded", "A": "http.Header",
		"List": "[]*T", "V": "T", "W": "http.Header", "F": "(*T, error)", "T.M": "T"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("types (-want +got):\n%s", d)
	}
}
