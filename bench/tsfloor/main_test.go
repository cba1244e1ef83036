package main

import "testing"

// TestFlagsThatGiveNoMeasurementAreRefused: no root, an unknown query and
// fewer than one worker (which printed a tree's files parsed in 0.00 s
// with nothing parsed) are errors; the documented flags are not.
func TestFlagsThatGiveNoMeasurementAreRefused(t *testing.T) {
	for _, tc := range []struct {
		root, query string
		workers     int
		ok          bool
	}{
		{"/src", "tags", 2, true},
		{"/src", "none", 1, true},
		{"", "tags", 2, false},
		{"/src", "bogus", 2, false},
		{"/src", "tags", 0, false},
		{"/src", "none", -3, false},
	} {
		err := checkFlags(tc.root, tc.query, tc.workers)
		if (err == nil) != tc.ok {
			t.Errorf("checkFlags(%q, %q, %d) = %v, want ok %v", tc.root, tc.query, tc.workers, err, tc.ok)
		}
	}
}
