package sourcefacts

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func newTestExtractor(t testing.TB) *Extractor {
	t.Helper()
	e, err := NewGoExtractor()
	if err != nil {
		t.Fatalf("NewGoExtractor: %v", err)
	}
	t.Cleanup(e.Close)
	return e
}

func extractFile(t *testing.T, e *Extractor, rel string) (*FileFacts, []byte) {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("testdata", filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	ff, err := e.Extract(context.Background(), rel, src)
	if err != nil {
		t.Fatalf("Extract(%s): %v", rel, err)
	}
	checkInvariants(t, ff, src)
	return ff, src
}

// symRow is the part of a Symbol the table tests compare.
type symRow struct {
	Kind, Receiver, Container, Name string
	Doc, Signature                  string
	Lines                           [2]int // Range start and end line
	NameLine                        int
}

func TestExtractSymbols(t *testing.T) {
	e := newTestExtractor(t)
	ff, _ := extractFile(t, e, "server.go")
	want := []symRow{
		{KindConstant, "", "", "MaxConns", "MaxConns caps the connections.", "const MaxConns = 10", [2]int{14, 14}, 14},
		{KindConstant, "", "", "A", "A is documented.", "const A = iota", [2]int{18, 18}, 18},
		{KindConstant, "", "", "B", "", "const B", [2]int{19, 19}, 19},
		{KindConstant, "", "", "C", "", "const C", [2]int{21, 21}, 21},
		{KindVariable, "", "", "Default", "Default is the default server.", "var Default = New()", [2]int{26, 26}, 26},
		{KindVariable, "", "", "x", "", "var x, y = 1, 2", [2]int{27, 27}, 27},
		{KindVariable, "", "", "y", "", "var x, y = 1, 2", [2]int{27, 27}, 27},
		{KindInterface, "", "", "Handler", "Handler responds to a request.", "type Handler interface", [2]int{31, 34}, 31},
		{KindMethod, "", "Handler", "ServeHTTP", "ServeHTTP serves one request.", "ServeHTTP(w h.ResponseWriter, r *h.Request)", [2]int{33, 33}, 33},
		{KindType, "", "", "HandlerFunc", "HandlerFunc adapts a function to Handler.", "type HandlerFunc func(h.ResponseWriter, *h.Request)", [2]int{37, 37}, 37},
		{KindMethod, "HandlerFunc", "", "ServeHTTP", "ServeHTTP calls f(w, r).", "func (f HandlerFunc) ServeHTTP(w h.ResponseWriter, r *h.Request)", [2]int{40, 42}, 40},
		{KindStruct, "", "", "Server", "Server serves.\n\nIt has two paragraphs.", "type Server struct", [2]int{47, 51}, 47},
		{KindField, "", "Server", "Addr", "", "Addr string", [2]int{48, 48}, 48},
		{KindField, "", "Server", "Handler", "", "Handler Handler", [2]int{49, 49}, 49},
		{KindField, "", "Server", "count", "", "count int", [2]int{50, 50}, 50},
		{KindFunction, "", "", "New", "New returns a Server.", "func New() *Server", [2]int{56, 58}, 56},
		{KindMethod, "Server", "", "ServeHTTP", "ServeHTTP dispatches to s.Handler.", "func (s *Server) ServeHTTP(w h.ResponseWriter, r *h.Request)", [2]int{61, 65}, 61},
		{KindStruct, "", "", "List", "List is a generic list.", "type List[T any] struct", [2]int{68, 70}, 68},
		{KindField, "", "List", "items", "", "items []T", [2]int{69, 69}, 69},
		{KindMethod, "List", "", "Push", "Push appends v.", "func (l *List[T]) Push(v T)", [2]int{73, 73}, 73},
		{KindType, "", "", "Alias", "Alias is another name for Server.", "type Alias = Server", [2]int{76, 76}, 76},
		{KindFunction, "", "", "helper", "", "func helper() int", [2]int{78, 82}, 78},
		{KindStruct, "", "helper", "local", "", "type local struct", [2]int{79, 79}, 79},
		{KindField, "", "helper.local", "n", "", "n int", [2]int{79, 79}, 79},
		{KindMethod, "local", "", "get", "", "func (l local) get() int", [2]int{84, 84}, 84},
		{KindFunction, "", "", "Directive", "Directive is documented.", "func Directive()", [2]int{89, 89}, 89},
	}
	var got []symRow
	for _, s := range ff.Symbols {
		got = append(got, symRow{s.Kind, s.Receiver, s.Container, s.Name, s.Doc, s.Signature,
			[2]int{s.Range.StartLine, s.Range.EndLine}, s.NameRange.StartLine})
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("symbols (-want +got):\n%s", diff)
	}
	if ff.Package != "server" {
		t.Errorf("Package = %q, want server", ff.Package)
	}
	if ff.Status != StatusCurrent || ff.Error != "" {
		t.Errorf("Status = %q %q, want current", ff.Status, ff.Error)
	}
}

func TestExtractRanges(t *testing.T) {
	e := newTestExtractor(t)
	ff, src := extractFile(t, e, "server.go")
	find := func(qualified string) Symbol {
		for _, s := range ff.Symbols {
			if s.Qualified() == qualified {
				return s
			}
		}
		t.Fatalf("no symbol %s", qualified)
		return Symbol{}
	}
	tests := []struct {
		qualified string
		text      string // src[Range]
	}{
		{"Server.ServeHTTP", "func (s *Server) ServeHTTP(w h.ResponseWriter, r *h.Request) {\n\ts.count++\n\ts.Handler.ServeHTTP(w, r)\n\tfmt.Println(ToUpper(r.URL.Path))\n}"},
		{"MaxConns", "const MaxConns = 10"},                   // ungrouped: keyword included
		{"A", "A = iota"},                                     // grouped: the spec
		{"Alias", "type Alias = Server"},                      // alias
		{"List", "type List[T any] struct {\n\titems []T\n}"}, // generic
	}
	for _, tt := range tests {
		s := find(tt.qualified)
		if got := string(src[s.Range.StartByte:s.Range.EndByte]); got != tt.text {
			t.Errorf("%s: src[Range] = %q, want %q", tt.qualified, got, tt.text)
		}
	}
	m := find("Server.ServeHTTP")
	want := Range{StartByte: m.Range.StartByte + 17, EndByte: m.Range.StartByte + 26, StartLine: 61, EndLine: 61, StartCol: 17, EndCol: 26}
	if diff := cmp.Diff(want, m.NameRange); diff != "" {
		t.Errorf("Server.ServeHTTP NameRange (-want +got):\n%s", diff)
	}
}

func TestExtractDocs(t *testing.T) {
	e := newTestExtractor(t)
	tests := []struct {
		name, src string
		symbol    string // Symbol.Name to look at
		doc       string
		text      string // src[Range], if set
	}{
		{"line comments", "package p\n\n// F does.\n//   Indented.\nfunc F() {}\n", "F", "F does.\nIndented.", ""},
		{"block comment", "package p\n\n/* F does.\n * More.\n */\nfunc F() {}\n", "F", "F does.\nMore.", ""},
		{"same line block comment", "package p\n\n/* c */ func F() {}\n", "F", "", ""},
		{"blank line between", "package p\n\n// Stray.\n\nfunc F() {}\n", "F", "", ""},
		{"two runs", "package p\n\n// A.\n\n// B.\nfunc F() {}\n", "F", "B.", ""},
		{"trailing comment above", "package p\n\nvar a = 1 // note\nfunc F() {}\n", "F", "", ""},
		{"directive only", "package p\n\n//go:noinline\nfunc F() {}\n", "F", "", ""},
		{"directive kept out", "package p\n\n// F does.\n//go:noinline\n//export F\nfunc F() {}\n", "F", "F does.", ""},
		{"not a directive", "package p\n\n// Note: F does.\nfunc F() {}\n", "F", "Note: F does.", ""},
		{"comment ending in a keyword", "package p\n\nvar (\n\t// the type\n\tx int\n)\n", "x", "the type", "x int"},
		{"ungrouped type", "package p\n\n// T is.\ntype T int\n", "T", "T is.", "type T int"},
		{"grouped type with group doc", "package p\n\n// Group.\ntype (\n\tT int\n)\n", "T", "", "T int"},
		{"grouped const", "package p\n\nconst (\n\t// K is.\n\tK = 1\n)\n", "K", "K is.", "K = 1"},
		{"local type", "package p\n\nfunc F() {\n\t// t is.\n\ttype t int\n}\n", "t", "t is.", "type t int"},
		{"field", "package p\n\ntype S struct {\n\t// X is.\n\tX int // trailing\n}\n", "X", "X is.", "X int"},
		{"long doc capped", "package p\n\n" + strings.Repeat("// "+strings.Repeat("d", 100)+"\n", 200) + "func F() {}\n", "F",
			strings.Repeat(strings.Repeat("d", 100)+"\n", 90)[:MaxDocBytes-len("…")] + "…", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ff, err := e.Extract(context.Background(), "p.go", []byte(tt.src))
			if err != nil {
				t.Fatal(err)
			}
			checkInvariants(t, ff, []byte(tt.src))
			if ff.Status != StatusCurrent {
				t.Errorf("status %q %q", ff.Status, ff.Error)
			}
			for _, s := range ff.Symbols {
				if s.Name != tt.symbol {
					continue
				}
				if s.Doc != tt.doc {
					t.Errorf("Doc = %q, want %q", s.Doc, tt.doc)
				}
				if got := tt.src[s.Range.StartByte:s.Range.EndByte]; tt.text != "" && got != tt.text {
					t.Errorf("src[Range] = %q, want %q", got, tt.text)
				}
				return
			}
			t.Errorf("no symbol %s in %+v", tt.symbol, ff.Symbols)
		})
	}
}

func TestExtractReceivers(t *testing.T) {
	e := newTestExtractor(t)
	tests := []struct{ decl, receiver, signature string }{
		{"func (s *Server) M()", "Server", "func (s *Server) M()"},
		{"func (s Server) M()", "Server", "func (s Server) M()"},
		{"func (Server) M()", "Server", "func (Server) M()"},
		{"func (l *List[T]) M()", "List", "func (l *List[T]) M()"},
		{"func (m Map[K, V]) M()", "Map", "func (m Map[K, V]) M()"},
		{"func (_ *List[_]) M()", "List", "func (_ *List[_]) M()"},
		{"func (s (*Server)) M()", "Server", "func (s (*Server)) M()"},
		{"func (\n\ts *Server,\n) M(\n\ta int,\n) (err error)", "Server", "func ( s *Server, ) M( a int, ) (err error)"},
	}
	for _, tt := range tests {
		t.Run(tt.decl, func(t *testing.T) {
			src := "package p\n\n" + tt.decl + " {}\n"
			ff, err := e.Extract(context.Background(), "p.go", []byte(src))
			if err != nil {
				t.Fatal(err)
			}
			checkInvariants(t, ff, []byte(src))
			if len(ff.Symbols) != 1 {
				t.Fatalf("symbols %+v", ff.Symbols)
			}
			s := ff.Symbols[0]
			if s.Kind != KindMethod || s.Receiver != tt.receiver || s.Signature != tt.signature || s.Qualified() != tt.receiver+".M" {
				t.Errorf("got %s %q %q, want method %q %q", s.Kind, s.Receiver, s.Signature, tt.receiver, tt.signature)
			}
		})
	}
	// Signatures are capped.
	src := "package p\n\nfunc F(" + strings.Repeat("a int, ", 100) + ") {}\n"
	ff, err := e.Extract(context.Background(), "p.go", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if sig := ff.Symbols[0].Signature; len(sig) > MaxSignatureBytes || !strings.HasPrefix(sig, "func F(a int, a int,") || !strings.HasSuffix(sig, "…") {
		t.Errorf("long signature %q (%d bytes)", sig, len(sig))
	}
}

// refRow is the part of a Reference the table tests compare; Enclosing is
// the enclosing symbol's qualified name, or "-".
type refRow struct {
	Kind, Receiver, Name string
	Line                 int
	Enclosing            string
}

func refRows(ff *FileFacts, keep func(Reference) bool) []refRow {
	var rows []refRow
	for _, r := range ff.References {
		if !keep(r) {
			continue
		}
		enc := "-"
		if r.Enclosing >= 0 {
			enc = fullName(ff.Symbols[r.Enclosing])
		}
		rows = append(rows, refRow{r.Kind, r.Receiver, r.Name, r.Range.StartLine, enc})
	}
	return rows
}

func TestExtractReferences(t *testing.T) {
	e := newTestExtractor(t)
	ff, _ := extractFile(t, e, "server.go")
	tests := []struct {
		name string
		keep func(Reference) bool
		want []refRow
	}{
		{
			name: "calls",
			keep: func(r Reference) bool { return r.Kind == RefCall },
			want: []refRow{
				{RefCall, "", "New", 26, "Default"}, // package level: innermost definition
				{RefCall, "", "f", 41, "HandlerFunc.ServeHTTP"},
				{RefCall, "s.Handler", "ServeHTTP", 63, "Server.ServeHTTP"},
				{RefCall, "fmt", "Println", 64, "Server.ServeHTTP"},
				{RefCall, "", "ToUpper", 64, "Server.ServeHTTP"},
				{RefCall, "", "append", 73, "List.Push"},
				{RefCall, "v", "get", 81, "helper"}, // (v.get)()
				{RefCall, "", "len", 81, "helper"},
				{RefCall, "fmt", "Sprint", 81, "helper"},
			},
		},
		{
			name: "types",
			keep: func(r Reference) bool {
				return r.Kind == RefType && (r.Receiver != "" && r.Range.StartLine >= 61 ||
					r.Name == "Server" || r.Name == "HandlerFunc" || r.Name == "local" || r.Name == "Handler")
			},
			want: []refRow{
				{RefType, "", "HandlerFunc", 40, "HandlerFunc.ServeHTTP"}, // the receiver type
				{RefType, "", "Handler", 49, "Server.Handler"},
				{RefType, "", "Server", 56, "New"},
				{RefType, "", "Server", 57, "New"},
				{RefType, "", "Server", 61, "Server.ServeHTTP"},
				{RefType, "h", "ResponseWriter", 61, "Server.ServeHTTP"}, // qualified: the package
				{RefType, "h", "Request", 61, "Server.ServeHTTP"},
				{RefType, "", "Server", 76, "Alias"},
				{RefType, "", "local", 80, "helper"},
				{RefType, "", "local", 84, "local.get"},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, refRows(ff, tt.keep)); diff != "" {
				t.Errorf("references (-want +got):\n%s", diff)
			}
		})
	}
	// A definition's own name is not also a reference.
	for _, r := range ff.References {
		for _, s := range ff.Symbols {
			if r.Range.StartByte == s.NameRange.StartByte {
				t.Errorf("reference %s at line %d is the name of definition %s", r.Name, r.Range.StartLine, s.Qualified())
			}
		}
	}
}

func TestExtractImports(t *testing.T) {
	e := newTestExtractor(t)
	ff, src := extractFile(t, e, "server.go")
	want := []Import{
		{Path: "embed", Alias: "_"},
		{Path: "fmt"},
		{Path: "net/http", Alias: "h"},
		{Path: "strings", Alias: "."},
	}
	if diff := cmp.Diff(want, ff.Imports, cmpopts.IgnoreFields(Import{}, "Range")); diff != "" {
		t.Errorf("imports (-want +got):\n%s", diff)
	}
	if len(ff.Imports) == 4 {
		r := ff.Imports[2].Range
		if got := string(src[r.StartByte:r.EndByte]); got != `h "net/http"` {
			t.Errorf("import range text = %q", got)
		}
		if r.StartLine != 9 || r.EndLine != 9 {
			t.Errorf("import lines = %d-%d, want 9-9", r.StartLine, r.EndLine)
		}
	}
}

func TestExtractProvenance(t *testing.T) {
	e := newTestExtractor(t)
	tests := []struct {
		path string
		test bool
	}{
		{"server.go", false},
		{"server_test.go", true},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			ff, src := extractFile(t, e, tt.path)
			want := Provenance{
				Path:           tt.path,
				Hash:           HashBytes(src),
				Generation:     1,
				Parser:         "tree-sitter/0.25.0",
				Grammar:        "go",
				GrammarVersion: "v0.25.0",
				Extractor:      ExtractorVersion,
				LanguageBy:     "go-only extractor",
			}
			if diff := cmp.Diff(want, ff.Provenance); diff != "" {
				t.Errorf("provenance (-want +got):\n%s", diff)
			}
			if ff.Test != tt.test {
				t.Errorf("Test = %v, want %v", ff.Test, tt.test)
			}
			if ff.Language != "go" {
				t.Errorf("Language = %q", ff.Language)
			}
		})
	}
	ff, _ := extractFile(t, e, "server_test.go")
	if diff := cmp.Diff([]Import{{Path: "testing"}}, ff.Imports, cmpopts.IgnoreFields(Import{}, "Range")); diff != "" {
		t.Errorf("test file imports (-want +got):\n%s", diff)
	}
	if len(ff.Symbols) != 1 || ff.Symbols[0].Qualified() != "TestNew" {
		t.Errorf("test file symbols = %+v", ff.Symbols)
	}
}

func TestExtractStatus(t *testing.T) {
	e := newTestExtractor(t)
	big := func(prefix, fill, suffix string) []byte {
		b := make([]byte, 0, 10<<20+len(prefix)+len(suffix))
		b = append(b, prefix...)
		b = append(b, bytes.Repeat([]byte(fill), (10<<20)/len(fill))...)
		return append(b, suffix...)
	}
	tests := []struct {
		name       string
		src        []byte
		status     string
		errPrefix  string
		minSymbols int // at least this many symbols
		noFacts    bool
	}{
		{name: "empty", src: nil, status: StatusCurrent, noFacts: true},
		{name: "clean", src: []byte("package p\n\nfunc F() {}\n"), status: StatusCurrent, minSymbols: 1},
		{name: "syntax error", src: []byte("package p\n\nfunc F() {\n\tx := \n}\n\nfunc G() {}\n"),
			status: StatusPartial, errPrefix: "syntax error", minSymbols: 1},
		{name: "missing brace", src: []byte("package p\n\nfunc F() {\n"), status: StatusPartial, errPrefix: "syntax error"},
		{name: "binary", src: []byte("package p\x00\x01\x02func F() {}"), status: StatusError, errPrefix: "binary file", noFacts: true},
		{name: "NUL late", src: append(append([]byte("package p\n"), bytes.Repeat([]byte("//\n"), 4000)...), 0), status: StatusPartial, errPrefix: "syntax error"},
		{name: "invalid UTF-8", src: []byte("package p\n\n// Doc \xff\xfe.\nfunc F\xc3() { g\xff() }\nfunc G() {}\n"), status: StatusPartial, minSymbols: 1},
		{name: "invalid UTF-8 in comment and string", src: []byte("package p\n\n// F \xff doc.\nfunc F() string { return \"\xfe\" }\n"), status: StatusCurrent, minSymbols: 1},
		{name: "10MB single-line string", src: big(`package p; var s = "`, "x", "\"\n"), status: StatusCurrent, minSymbols: 1},
		{name: "10MB single-line comment", src: big("package p; var v int // ", "c", "\n"), status: StatusCurrent, minSymbols: 1},
		{name: "10MB single-line identifier", src: big("package p; var ", "x", " int\n"), status: StatusCurrent, minSymbols: 1},
		{name: "10MB single line, no newline", src: big("package p; var v int // ", "c", ""), status: StatusPartial, errPrefix: "syntax error", minSymbols: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ff, err := e.Extract(context.Background(), "p.go", tt.src)
			if err != nil {
				t.Fatalf("Extract: %v", err)
			}
			checkInvariants(t, ff, tt.src)
			if ff.Status != tt.status || !strings.HasPrefix(ff.Error, tt.errPrefix) {
				t.Errorf("Status, Error = %q, %q; want %q, %q...", ff.Status, ff.Error, tt.status, tt.errPrefix)
			}
			if tt.status == StatusCurrent && ff.Error != "" {
				t.Errorf("Error = %q on a current file", ff.Error)
			}
			if len(ff.Symbols) < tt.minSymbols {
				t.Errorf("%d symbols, want at least %d", len(ff.Symbols), tt.minSymbols)
			}
			if tt.noFacts && (len(ff.Symbols)+len(ff.References)+len(ff.Imports) != 0 || ff.Package != "") {
				t.Errorf("facts on a file that should have none: %d symbols, %d references, %d imports, package %q",
					len(ff.Symbols), len(ff.References), len(ff.Imports), ff.Package)
			}
			if ff.Provenance.Hash != HashBytes(tt.src) {
				t.Errorf("Hash = %v, want %v", ff.Provenance.Hash, HashBytes(tt.src))
			}
		})
	}
}

func TestExtractInvalidUTF8Text(t *testing.T) {
	e := newTestExtractor(t)
	src := []byte("package p\n\n// F \xff doc.\nfunc F() {}\n")
	ff, err := e.Extract(context.Background(), "p.go", src)
	if err != nil {
		t.Fatal(err)
	}
	if len(ff.Symbols) != 1 || ff.Symbols[0].Doc != "F \uFFFD doc." {
		t.Errorf("symbols = %+v, want F with doc %q", ff.Symbols, "F \uFFFD doc.")
	}
}

func TestExtractParseTimeout(t *testing.T) {
	e := newTestExtractor(t)
	// A long run of "(" sends tree-sitter's error recovery into
	// superlinear time: seconds for 64 KB.
	src := []byte("package p; var x = " + strings.Repeat("(", 64<<10))
	e.SetParseTimeout(time.Millisecond)
	ff, err := e.Extract(context.Background(), "p.go", src)
	if err != nil {
		t.Fatal(err)
	}
	if ff.Status != StatusError || ff.Error != "parse timeout" {
		t.Errorf("Status, Error = %q, %q; want error, parse timeout", ff.Status, ff.Error)
	}
	// The parser is reusable afterwards.
	e.SetParseTimeout(0)
	ff, err = e.Extract(context.Background(), "q.go", []byte("package q\nfunc F() {}\n"))
	if err != nil || ff.Status != StatusCurrent || len(ff.Symbols) != 1 {
		t.Errorf("after a timeout: %v, %+v", err, ff)
	}
}

func TestExtractContext(t *testing.T) {
	e := newTestExtractor(t)
	src, err := os.ReadFile("testdata/server.go")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if ff, err := e.Extract(ctx, "server.go", src); !errors.Is(err, context.Canceled) || ff != nil {
		t.Errorf("cancelled: got %v, %v; want nil, context.Canceled", ff, err)
	}
	// Cancellation during a large parse (the progress callback path).
	big := []byte("package p\nfunc F() {\n" + strings.Repeat("a.b(c)\n", 4<<20/7) + "}\n")
	ctx, cancel = context.WithCancel(context.Background())
	time.AfterFunc(20*time.Millisecond, cancel)
	start := time.Now()
	if ff, err := e.Extract(ctx, "big.go", big); !errors.Is(err, context.Canceled) || ff != nil {
		t.Errorf("cancelled mid-parse: got %v, %v; want nil, context.Canceled", ff, err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("cancellation took %v", d)
	}
	ctx, cancel = context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if ff, err := e.Extract(ctx, "big.go", big); !errors.Is(err, context.DeadlineExceeded) || ff != nil {
		t.Errorf("deadline: got %v, %v; want nil, context.DeadlineExceeded", ff, err)
	}
	// The extractor still works.
	if ff, err := e.Extract(context.Background(), "server.go", src); err != nil || ff.Status != StatusCurrent {
		t.Errorf("after cancellation: %v, %v", ff, err)
	}
}

func TestExtractConcurrent(t *testing.T) {
	e := newTestExtractor(t)
	src, err := os.ReadFile("testdata/server.go")
	if err != nil {
		t.Fatal(err)
	}
	want, err := e.Extract(context.Background(), "server.go", src)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 10; i++ {
				got, err := e.Extract(context.Background(), "server.go", src)
				if err != nil {
					errs <- err.Error()
					return
				}
				if diff := cmp.Diff(want, got); diff != "" {
					errs <- diff
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for msg := range errs {
		t.Error(msg)
	}
}

func TestExtractorClose(t *testing.T) {
	e, err := NewGoExtractor()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Extract(context.Background(), "p.go", []byte("package p")); err != nil {
		t.Fatal(err)
	}
	e.Close()
	e.Close()
	if ff, err := e.Extract(context.Background(), "p.go", []byte("package p")); !errors.Is(err, ErrClosed) || ff != nil {
		t.Errorf("after Close: %v, %v; want nil, ErrClosed", ff, err)
	}
}

// lineIndex returns a function from byte offsets of src to 1-based lines
// and 0-based byte columns, in logarithmic time (the hostile tests check
// millions of facts of 10 MB inputs).
func lineIndex(src []byte) func(off int) (line, col int) {
	starts := []int{0}
	for i, c := range src {
		if c == '\n' {
			starts = append(starts, i+1)
		}
	}
	return func(off int) (int, int) {
		i := sort.SearchInts(starts, off+1) - 1
		return i + 1, off - starts[i]
	}
}

// checkInvariants checks what must hold for any FileFacts from src: ranges
// inside src and consistent with its lines, names equal to the text they
// span, valid UTF-8 text, Enclosing indexes that contain their reference.
func checkInvariants(t *testing.T, ff *FileFacts, src []byte) {
	t.Helper()
	if ff.Provenance.Hash != HashBytes(src) {
		t.Errorf("%s: hash %v, want %v", ff.Provenance.Path, ff.Provenance.Hash, HashBytes(src))
	}
	lineOf := lineIndex(src)
	checkRange := func(what string, r Range) {
		t.Helper()
		if r.StartByte < 0 || r.StartByte > r.EndByte || r.EndByte > len(src) {
			t.Errorf("%s: range %+v outside [0,%d]", what, r, len(src))
			return
		}
		if l, c := lineOf(r.StartByte); l != r.StartLine || c != r.StartCol {
			t.Errorf("%s: start line:col %d:%d, want %d:%d", what, r.StartLine, r.StartCol, l, c)
		}
		end := r.EndByte
		if end > r.StartByte && src[end-1] == '\n' {
			end-- // the line a trailing newline ends
		}
		if l, _ := lineOf(end); l != r.EndLine {
			t.Errorf("%s: end line %d, want %d", what, r.EndLine, l)
		}
	}
	// sameText reports whether name is the text of r, or that text capped
	// with "…".
	sameText := func(name string, r Range) bool {
		text := strings.ToValidUTF8(string(src[r.StartByte:r.EndByte]), "\uFFFD")
		return text == name || strings.HasSuffix(name, "…") && strings.HasPrefix(text, strings.TrimSuffix(name, "…"))
	}
	for _, s := range ff.Symbols {
		what := fmt.Sprintf("symbol %.80s", fullName(s))
		checkRange(what, s.Range)
		checkRange(what+" name", s.NameRange)
		if s.NameRange.StartByte < s.Range.StartByte || s.NameRange.EndByte > s.Range.EndByte {
			t.Errorf("%s: name range %+v outside range %+v", what, s.NameRange, s.Range)
		}
		if !sameText(s.Name, s.NameRange) {
			t.Errorf("%s: name range %+v is not its name", what, s.NameRange)
		}
		for _, str := range []string{s.Name, s.Receiver, s.Container, s.Signature, s.Doc} {
			if !utf8.ValidString(str) {
				t.Errorf("%s: invalid UTF-8 %.80q", what, str)
			}
		}
		if len(s.Signature) > MaxSignatureBytes || len(s.Doc) > MaxDocBytes {
			t.Errorf("%s: signature or doc over the cap", what)
		}
	}
	for _, r := range ff.References {
		what := fmt.Sprintf("reference %.80s", r.Name)
		checkRange(what, r.Range)
		if !sameText(r.Name, r.Range) {
			t.Errorf("%s: range %+v is not its name", what, r.Range)
		}
		if r.Enclosing < -1 || r.Enclosing >= len(ff.Symbols) {
			t.Errorf("%s: Enclosing %d out of range", what, r.Enclosing)
		} else if r.Enclosing >= 0 && !contains(ff.Symbols[r.Enclosing].Range, r.Range) {
			t.Errorf("%s: enclosing %.80s does not contain it", what, fullName(ff.Symbols[r.Enclosing]))
		}
		if !utf8.ValidString(r.Name) || !utf8.ValidString(r.Receiver) || len(r.Receiver) > MaxReceiverBytes {
			t.Errorf("%s: bad receiver %.80q", what, r.Receiver)
		}
	}
	for _, im := range ff.Imports {
		checkRange(fmt.Sprintf("import %.80q", im.Path), im.Range)
		if !utf8.ValidString(im.Path) || !utf8.ValidString(im.Alias) {
			t.Errorf("import %.80q: invalid UTF-8", im.Path)
		}
	}
	if !utf8.ValidString(ff.Package) {
		t.Errorf("package %.80q: invalid UTF-8", ff.Package)
	}
}

// TestAParserWhoseParseStoppedIsNotUsedAgain: a parse that runs out of
// its budget leaves its parser out of the pool (tree-sitter 0.25.0 cannot
// reset a parser stopped while balancing: the next parse on it aborts the
// process), and the next extraction gets a new parser that works.
func TestAParserWhoseParseStoppedIsNotUsedAgain(t *testing.T) {
	e := newTestExtractor(t)
	g := e.grammars["go"]
	ok := []byte("package q\nfunc F() {}\n")
	if ff, err := e.Extract(context.Background(), "q.go", ok); err != nil || ff.Status != StatusCurrent {
		t.Fatalf("first extraction: %v, %+v", err, ff)
	}
	idle := func() []*worker {
		g.mu.Lock()
		defer g.mu.Unlock()
		return slices.Clone(g.idle)
	}
	before := idle()
	if len(before) != 1 {
		t.Fatalf("%d idle parsers after one extraction, want 1", len(before))
	}
	e.SetParseTimeout(time.Millisecond)
	ff, err := e.Extract(context.Background(), "p.go", []byte("package p; var x = "+strings.Repeat("(", 64<<10)))
	if err != nil || ff.Error != "parse timeout" {
		t.Fatalf("the stopped parse: %v, %+v", err, ff)
	}
	if after := idle(); len(after) != 0 {
		t.Errorf("the parser of the stopped parse went back to the pool (%d idle)", len(after))
	}
	e.SetParseTimeout(0)
	if ff, err := e.Extract(context.Background(), "q.go", ok); err != nil || ff.Status != StatusCurrent || len(ff.Symbols) != 1 {
		t.Errorf("after the stopped parse: %v, %+v", err, ff)
	}
	if after := idle(); len(after) != 1 || after[0] == before[0] {
		t.Errorf("idle parsers after a new extraction: %d, the stopped one among them: %v", len(after), len(after) == 1 && after[0] == before[0])
	}
}
