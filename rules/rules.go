// Package rules holds rlm's default rule files, embedded.
//
// Each X.pl has its unit tests in X_test.pl; `go test ./rules/` runs them
// through engine's rule-test runner, one subtest per test clause.
package rules

import "embed"

// FS holds the default rule files (*.pl, including *_test.pl).
//
//go:embed *.pl
var FS embed.FS
