package main

import (
	"context"
	"fmt"
	"io"

	"github.com/rlm-dev/rlm"
)

const rulesUsage = `usage:
  rlm rules dump DIR            write the embedded default rules under DIR (one folder per concern)
  rlm rules ids [--rules DIR]   list the rule IDs and what each means
`

// cmdRules serves the rule files' authors: the defaults to read or
// override, and the registry of rule IDs.
func cmdRules(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return usageError{"a subcommand is required\n" + rulesUsage}
	}
	switch args[0] {
	case "dump":
		fs := newFlags("rules dump", stderr)
		pos, err := parseFlags(fs, args[1:])
		if err != nil {
			return err
		}
		if len(pos) != 1 {
			return usageError{"rules dump needs one DIR"}
		}
		if err := rlm.DumpRules(pos[0]); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "wrote the default rules to %s\n", pos[0])
		return nil
	case "ids":
		fs := newFlags("rules ids", stderr)
		bf := &backendFlags{}
		addRulesFlag(fs, bf)
		asJSON := fs.Bool("json", false, "print JSON")
		if _, err := parseFlags(fs, args[1:]); err != nil {
			return err
		}
		pl, err := rlm.NewPlanner(rlm.Options{Rules: bf.rules})
		if err != nil {
			return err
		}
		ids, err := pl.RuleIDs(ctx)
		if err != nil {
			return err
		}
		if *asJSON {
			return writeJSON(stdout, ids)
		}
		for _, r := range ids {
			fmt.Fprintf(stdout, "%-24s %s\n", r.ID, r.Meaning)
		}
		return nil
	default:
		return usageError{fmt.Sprintf("unknown rules subcommand %q\n%s", args[0], rulesUsage)}
	}
}
