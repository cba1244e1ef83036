package testfixture

import "testing"

// Must returns a function that fails tb if err is set and otherwise returns
// v, for calls whose result a test checks for "nothing there":
//
//	if hits := testfixture.Must(snap.Symbols(ctx, "Old"))(t); len(hits) != 0 {
//
// A discarded error would let a failed call's empty result pass as
// "nothing there".
func Must[T any](v T, err error) func(tb testing.TB) T {
	return func(tb testing.TB) T {
		tb.Helper()
		if err != nil {
			tb.Fatal(err)
		}
		return v
	}
}
