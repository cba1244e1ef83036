package chroma

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rlm-dev/rlm/retrieval"
)

// TestRolesAreStoredForFiltersAndReadBackAsGiven: every record stores its
// document's role (retrieval.RoleOf) for the role filters, marked derived
// when the document had none, so that Fetch returns the document as it was
// upserted; Roles and ExcludeRoles become $in and $nin on it.
func TestRolesAreStoredForFiltersAndReadBackAsGiven(t *testing.T) {
	for _, d := range []retrieval.Document{
		{ID: "a", Path: "a_test.go", Test: true},
		{ID: "b", Path: "b.go"},
		{ID: "c", Path: "examples/c.go", Role: retrieval.RoleExample},
		{ID: "d", Path: "d_test.go", Test: true, Role: retrieval.RoleTest},
	} {
		m, err := toMetadata(d)
		if err != nil {
			t.Fatal(err)
		}
		if m[MetaRole] != retrieval.RoleOf(d) || (m[MetaRoleDerived] == true) != (d.Role == "") {
			t.Errorf("%s: role %v, derived %v", d.ID, m[MetaRole], m[MetaRoleDerived])
		}
		data, _ := json.Marshal(m)
		var back map[string]any
		if err := json.Unmarshal(data, &back); err != nil {
			t.Fatal(err)
		}
		got, err := fromRecord(d.ID, nil, back)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(d, got); diff != "" {
			t.Errorf("%s round trip (-upserted +fetched):\n%s", d.ID, diff)
		}
	}
	js := func(v any) string { b, _ := json.Marshal(v); return string(b) }
	for f, want := range map[*retrieval.Filter]string{
		{Roles: []string{retrieval.RoleExample}}:                                `{"role":"example"}`,
		{Roles: []string{retrieval.RoleTest, retrieval.RoleSource}}:             `{"role":{"$in":["source","test"]}}`,
		{ExcludeRoles: []string{retrieval.RoleTest, retrieval.RoleExample}}:     `{"role":{"$nin":["example","test"]}}`,
		{Kinds: []string{"method"}, ExcludeRoles: []string{retrieval.RoleTest}}: `{"$and":[{"kind":"method"},{"role":{"$nin":["test"]}}]}`,
	} {
		if got := js(compileFilter(*f).where); got != want {
			t.Errorf("%+v: where %s, want %s", *f, got, want)
		}
	}
}
