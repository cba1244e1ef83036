package store

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestWalkListerListsExactlyWhatItIncludes(t *testing.T) {
	root := t.TempDir()
	paths := []string{
		"a.go", "b.txt", "sub/c.go", "sub/c.py", ".hidden.go", ".hid/d.go",
		"vendor/v.go", "testdata/t.go", "node_modules/n.go", "x/vendor/v2.go", "x/testdata/y/z.go",
	}
	for _, p := range paths {
		writeFile(t, root, p, []byte("package p\n"))
	}
	cases := []struct {
		name string
		l    WalkLister
		want []string
	}{
		{"default: Go files", WalkLister{}, []string{"a.go", "sub/c.go"}},
		{"hidden and vendor", WalkLister{IncludeHidden: true, IncludeVendor: true},
			[]string{".hid/d.go", ".hidden.go", "a.go", "sub/c.go", "vendor/v.go", "x/vendor/v2.go"}},
		{"other languages by Match", WalkLister{Match: func(p string) bool {
			return strings.HasSuffix(p, ".go") || strings.HasSuffix(p, ".py")
		}}, []string{"a.go", "sub/c.go", "sub/c.py"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.l.List(context.Background(), root)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Fatalf("List (-want +got):\n%s", d)
			}
			for _, p := range paths {
				listed := false
				for _, q := range got {
					listed = listed || q == p
				}
				if tc.l.Includes(p) != listed {
					t.Errorf("Includes(%q) = %v, List says %v", p, !listed, listed)
				}
			}
		})
	}
}
