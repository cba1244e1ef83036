package sourcefacts

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// rolesTrees is the handmade trees of testdata/roles, one per language
// convention, shared with the search tests of the root package.
const rolesTrees = "../testdata/roles"

// extractTree extracts every file under dir with e, keyed by its
// slash-separated path relative to dir.
func extractTree(t *testing.T, e *Extractor, dir string) map[string]*FileFacts {
	t.Helper()
	out := map[string]*FileFacts{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		ff, err := e.Extract(context.Background(), rel, src)
		if err != nil {
			return err
		}
		if ff.Status != StatusCurrent {
			t.Errorf("%s: status %s (%s)", rel, ff.Status, ff.Error)
		}
		out[rel] = ff
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestFileRolesFollowEachLanguagesConvention(t *testing.T) {
	e := newAllExtractor(t)
	tests := []struct {
		tree string
		want map[string]string // path -> FileFacts.Role
	}{
		{"python", map[string]string{
			"shipping/cost.py":      RoleSource,
			"shipping/cost_test.py": RoleTest,
			"tests/conftest.py":     RoleTest,
			"conftest.py":           RoleTest,
			"tests/test_cost.py":    RoleTest,
			"tests/helpers.py":      RoleTest,
			"examples/quote.py":     RoleExample,
		}},
		{"javascript", map[string]string{
			"lib/cost.js":       RoleSource,
			"lib/cost.test.js":  RoleTest,
			"test/cost.js":      RoleTest,
			"__tests__/cost.js": RoleTest,
			"examples/quote.js": RoleExample,
		}},
		{"ruby", map[string]string{
			"lib/cost.rb":             RoleSource,
			"lib/cost_test.rb":        RoleTest,
			"spec/cost_spec.rb":       RoleTest,
			"spec/support/parcels.rb": RoleTest,
			"test/helper.rb":          RoleTest,
			"examples/quote.rb":       RoleExample,
		}},
		{"java", map[string]string{
			"src/main/java/shop/Cost.java":           RoleSource,
			"src/test/java/shop/CostTest.java":       RoleTest,
			"src/test/java/shop/ParcelFixtures.java": RoleTest,
			"examples/Quote.java":                    RoleExample,
		}},
		{"go", map[string]string{
			"cost.go":          RoleSource,
			"cost_test.go":     RoleTest,
			"example_test.go":  RoleTest,
			"example/quote.go": RoleExample,
		}},
		{"rust", map[string]string{
			"src/lib.rs":        RoleSource,
			"tests/cost.rs":     RoleTest,
			"examples/quote.rs": RoleExample,
		}},
		{"c", map[string]string{
			"src/cost.c":           RoleSource,
			"src/cost_test.c":      RoleTest,
			"test/check_cost.c":    RoleTest,
			"tests/cost_cases.cpp": RoleTest,
			"examples/quote.c":     RoleExample,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.tree, func(t *testing.T) {
			got := map[string]string{}
			for p, ff := range extractTree(t, e, filepath.Join(rolesTrees, tt.tree)) {
				got[p] = ff.Role
				if ff.Test != (ff.Role == RoleTest) {
					t.Errorf("%s: Test %v with role %s", p, ff.Test, ff.Role)
				}
				if len(ff.Symbols) == 0 {
					t.Errorf("%s: no symbols", p)
				}
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("roles (-want +got):\n%s", d)
			}
		})
	}
}

func TestDefinitionsWhoseSyntaxSaysSoHaveTheirOwnRole(t *testing.T) {
	e := newAllExtractor(t)
	type key struct{ path, symbol string }
	tests := []struct {
		tree string
		want map[key]string // FileFacts.SymbolRole of each function
	}{
		{"go", map[key]string{
			{"cost.go", "ShippingCost"}:                      RoleSource,
			{"cost.go", "Surcharge"}:                         RoleSource,
			{"cost_test.go", "parcelWeightShippingCost"}:     RoleTest,
			{"cost_test.go", "TestShippingCostParcelWeight"}: RoleTest,
			{"example_test.go", "ExampleShippingCost"}:       RoleExample,
			{"example_test.go", "Example_parcelWeight"}:      RoleExample,
			{"example_test.go", "Examplesweight"}:            RoleTest,
			{"example/quote.go", "printParcelShippingCost"}:  RoleExample,
			{"example/quote.go", "main"}:                     RoleExample,
		}},
		{"rust", map[key]string{
			{"src/lib.rs", "shipping_cost"}:                              RoleSource,
			{"src/lib.rs", "surcharge"}:                                  RoleSource,
			{"src/lib.rs", "parcel_weight_shipping_cost"}:                RoleTest,
			{"src/lib.rs", "check_parcel_shipping_cost_weight"}:          RoleTest,
			{"src/lib.rs", "heavy_parcel_weight_shipping_cost"}:          RoleTest,
			{"tests/cost.rs", "integration_parcel_weight_shipping_cost"}: RoleTest,
			{"tests/cost.rs", "surcharge_abroad"}:                        RoleTest, // #[test] in a test file: its file's role
			{"examples/quote.rs", "print_parcel_shipping_cost"}:          RoleExample,
			{"examples/quote.rs", "main"}:                                RoleExample,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.tree, func(t *testing.T) {
			got := map[key]string{}
			for p, ff := range extractTree(t, e, filepath.Join(rolesTrees, tt.tree)) {
				for i, s := range ff.Symbols {
					if s.Kind != KindFunction {
						continue
					}
					got[key{p, s.Name}] = ff.SymbolRole(i)
					if s.Role == ff.Role {
						t.Errorf("%s %s: Role %q repeats its file's: want \"\"", p, s.Name, s.Role)
					}
				}
			}
			if d := cmp.Diff(tt.want, got, cmp.AllowUnexported(key{})); d != "" {
				t.Errorf("roles (-want +got):\n%s", d)
			}
		})
	}
}

func TestFileRoleReadsTheConventionTableInOrder(t *testing.T) {
	tests := []struct {
		lang, path, want string
	}{
		{LangPython, "examples/tests/test_x.py", RoleTest}, // a test under examples/ is a test
		{LangPython, "pkg/test.py", RoleSource},
		{LangPython, "pkg/tests.py", RoleSource}, // a file named tests, not a directory
		{LangJavaScript, "test.js", RoleSource},
		{LangJavaScript, "src/contest/x.js", RoleSource}, // a directory name, not a substring
		{LangJava, "src/test/Foo.java", RoleTest},
		{LangJava, "test/Foo.java", RoleSource}, // Java's tree is src/test
		{LangGo, "examples/x.go", RoleExample},
		{LangGo, "test/x.go", RoleSource},
		{"", "examples/README", RoleExample},
		{LangRust, "src/tests.rs", RoleSource},
	}
	for _, tt := range tests {
		if got := FileRole(tt.lang, tt.path); got != tt.want {
			t.Errorf("FileRole(%q, %q) = %q, want %q", tt.lang, tt.path, got, tt.want)
		}
	}
	for _, c := range RoleConventions() {
		if c.Dir == "" && c.Base == "" {
			t.Errorf("convention %+v matches every path", c)
		}
		if c.Role != RoleTest && c.Role != RoleExample {
			t.Errorf("convention %+v: role %q", c, c.Role)
		}
	}
}
