package prompt

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The reference rules (testdata/reference-rules) are the prompt rules as
// they were before the default rules filed plain units as they examined
// them: every decided unit through every step (wanted units, plain
// wanted units, closure, the conflict check over every active unit,
// verdicts over every decided unit). The default rules must decide
// exactly as they do.

// relationalUnits is syntheticUnits(n) with every relation the rules
// read: conflicts, supersedes (some mutual), suggests, capabilities,
// triggers, mandatory and always-on units, from a fixed seed.
func relationalUnits(n int, seed uint64) []Unit {
	units := syntheticUnits(n)
	r := rand.New(rand.NewPCG(seed, 99))
	other := func(i int) string {
		j := r.IntN(n - 1)
		if j >= i {
			j++
		}
		return units[j].ID
	}
	for i := range units {
		u := &units[i]
		switch {
		case i%7 == 3:
			u.Conflicts = append(u.Conflicts, other(i))
		case i%11 == 5:
			u.Supersedes = append(u.Supersedes, other(i))
			j := slicesIndex(units, u.Supersedes[0])
			if i%2 == 0 {
				units[j].Supersedes = append(units[j].Supersedes, u.ID)
			} else {
				units[j].Activation = ActivationAlways // active whenever u is
			}
		case i%13 == 2:
			u.Suggests = append(u.Suggests, other(i), other(i))
		}
		if i%9 == 4 {
			u.Capabilities = []string{[]string{"net", "git.write"}[i%2]}
		}
		if i%19 == 6 {
			u.Triggers = []string{"git_repo"}
		}
		if i%23 == 8 {
			u.Activation = ActivationAlways
		}
		if i%29 == 10 {
			u.Mandatory = true
		}
	}
	return units
}

func slicesIndex(units []Unit, id string) int {
	for i, u := range units {
		if u.ID == id {
			return i
		}
	}
	panic(id)
}

// projection is what a compile shows the harness author and the model.
type projection struct {
	Active, Rejected []Decision
	Text             string
	Tools            []string
	Fingerprint      string
	Candidates       int
	Err              string
}

func project(out *Compiled, err error) projection {
	if err != nil {
		return projection{Err: err.Error()}
	}
	return projection{Active: out.Active, Rejected: out.Rejected, Text: out.Text, Tools: toolNames(out.Tools),
		Fingerprint: out.Fingerprint, Candidates: out.Candidates}
}

// randomInput is a task of distinctTasks with random grants, host flags,
// needs, signals, mode, budget and context units.
func randomInput(r *rand.Rand, task string, units []Unit) (Input, Options) {
	pick := func() string { return units[r.IntN(len(units))].ID }
	in := Input{Text: task}
	switch r.IntN(4) {
	case 1:
		in.Capabilities = []string{"net"}
	case 2:
		in.Capabilities = []string{"net", "git.write"}
	}
	for range r.IntN(3) {
		in.HostSelected = append(in.HostSelected, pick())
	}
	for range r.IntN(3) {
		in.HostDenied = append(in.HostDenied, pick())
	}
	if r.IntN(3) == 0 {
		in.Needs = []string{benchWords[r.IntN(len(benchWords))]}
	}
	if r.IntN(4) == 0 {
		in.Signals = []string{"git_repo"}
	}
	if r.IntN(3) == 0 {
		for k := range 1 + r.IntN(3) {
			cu := Unit{ID: fmt.Sprintf("%sevidence_%d", ReservedPrefix, k), Kind: KindContext, Activation: ActivationAlways,
				Body: "evidence " + task}
			if r.IntN(2) == 0 {
				cu.Requires = []string{pick()}
			}
			if r.IntN(3) == 0 {
				cu.Conflicts = []string{pick()}
			}
			in.Context = append(in.Context, cu)
		}
	}
	var opts Options
	if r.IntN(10) == 0 && len(units) <= 200 {
		opts.Mode = ModeAllTools
	}
	if r.IntN(5) == 0 {
		opts.Budget = 300 + r.IntN(3000)
	}
	return in, opts
}

// TestDefaultRulesDecideAsTheReferencePipeline: over synthetic catalogs
// with and without relations, and many tasks with random grants, host
// flags, needs, signals, modes, budgets and context units, the default
// rules give the same active units, the same rejected units with the same
// reasons, text, tools and fingerprint (or the same error) as the
// reference rules, with no memo on either side; with extension hooks of
// select.pl and conflicts.pl loaded over both, too.
func TestDefaultRulesDecideAsTheReferencePipeline(t *testing.T) {
	hooks := rulesDir(t, map[string]string{"prompt/hooks.pl": `:- multifile(rule_id/2).
:- multifile(extra_select/4).
:- multifile(extra_reject/4).
:- multifile(extra_conflict/4).
rule_id(my_skills, "high-priority skills are wanted").
rule_id(my_no_resource, "no low-priority resources").
rule_id(my_one_writer, "a high-priority tool and a low-priority one may not be active together").
extra_select(my_skills, _, U, []) :- unit_prop(kind(skill), U), unit_prop(priority(2), U).
extra_reject(my_no_resource, _, U, []) :- unit_prop(kind(resource), U), unit_prop(priority(0), U).
extra_conflict(my_one_writer, A, B, []) :- unit_prop(kind(tool), A), unit_prop(kind(tool), B), unit_prop(priority(2), A), unit_prop(priority(0), B).
`})
	type setup struct {
		name  string
		units []Unit
		tasks int
		hooks bool
	}
	setups := []setup{
		{"synthetic 20", syntheticUnits(20), 32, false},
		{"synthetic 200", syntheticUnits(200), 32, false},
		{"relational 40", relationalUnits(40, 1), 40, false},
		{"relational 200", relationalUnits(200, 2), 40, false},
		{"relational 2000", relationalUnits(2000, 3), 4, false},
		{"relational 200, hooks", relationalUnits(200, 4), 8, true},
	}
	if testing.Short() {
		for i := range setups {
			setups[i].tasks /= 4
		}
	}
	for _, s := range setups {
		t.Run(s.name, func(t *testing.T) {
			var dir string
			if s.hooks {
				dir = hooks
			}
			c, err := NewCompiler(CompilerOptions{MemoSize: -1, RulesDir: dir})
			if err != nil {
				t.Fatal(err)
			}
			ref, err := NewCompiler(CompilerOptions{MemoSize: -1, RulesDir: dir, Rules: os.DirFS("testdata/reference-rules")})
			if err != nil {
				t.Fatal(err)
			}
			cat, err := NewCatalog(context.Background(), s.units, CatalogOptions{Model: "gpt-4o"})
			if err != nil {
				t.Fatal(err)
			}
			defer cat.Release()
			r := rand.New(rand.NewPCG(uint64(len(s.units)), 5))
			ctx := context.Background()
			var conflicts, pulled, errs int
			for i, task := range distinctTasks(s.tasks) {
				in, opts := randomInput(r, task, s.units)
				want := project(ref.Compile(ctx, cat, in, opts))
				got := project(c.Compile(ctx, cat, in, opts))
				if diff := cmp.Diff(want, got); diff != "" {
					t.Fatalf("task %d %q %+v %+v: the default rules decide otherwise (-reference +default):\n%s", i, task, in, opts, diff)
				}
				if got.Err != "" {
					errs++
				}
				for _, d := range got.Rejected {
					if d.Because.Rule == "cf_conflict" || d.Because.Rule == "cf_superseded" || d.Because.Rule == "my_one_writer" {
						conflicts++
					}
				}
				for _, d := range got.Active {
					if d.Because.Rule == "cl_required" || d.Because.Rule == "cl_suggested" {
						pulled++
					}
				}
				if i%4 != 0 {
					continue
				}
				id := s.units[r.IntN(len(s.units))].ID
				wantWhy, wantErr := ref.Why(ctx, cat, in, opts, id)
				gotWhy, gotErr := c.Why(ctx, cat, in, opts, id)
				if diff := cmp.Diff(wantWhy, gotWhy); diff != "" || fmt.Sprint(wantErr) != fmt.Sprint(gotErr) {
					t.Fatalf("task %d: Why %q: the default rules explain otherwise (-reference +default):\n%s%v / %v", i, id, diff, wantErr, gotErr)
				}
			}
			t.Logf("%d tasks: %d conflict or supersession losers, %d pulled units, %d errors", s.tasks, conflicts, pulled, errs)
			if strings.HasPrefix(s.name, "relational") && (conflicts == 0 || pulled == 0) {
				t.Errorf("the tasks exercised no conflict (%d) or no pulled unit (%d): the comparison proves little", conflicts, pulled)
			}
		})
	}
}
