package store

import "context"

// Lister says which files belong to the project. sourcefacts.Lister, the
// walker sourcefacts.Walk uses, implements it; implement it yourself to
// bring in other languages (together with an Extractor that handles
// them).
type Lister interface {
	// List returns the project's files under root, as slash-separated paths
	// relative to root, in any order. When some paths could not be walked
	// it returns the files it did list and an error wrapping a
	// *sourcefacts.WalkError; the store indexes those files and keeps the
	// faults for Snapshot.Faults. Any other error fails the validation.
	List(ctx context.Context, root string) ([]string, error)
	// Includes reports whether List(ctx, root) would list the
	// slash-separated relative path if it existed (used for hinted paths
	// and harness writes). It must agree with List.
	Includes(root, path string) bool
}
