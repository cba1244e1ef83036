package ship

import "example.com/shipping/internal/shipflags"

type Options struct{ flags shipflags.Flags }

func StableLabels(v bool) Options {
	if v {
		return Options{flags: shipflags.StableLabels}
	}
	return Options{}
}
