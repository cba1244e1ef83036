package shipflags

type Flags uint64

const (
	StableLabels Flags = 1 << iota // print the same crate with the same label bytes
	SortedCrates                   // crates in sorted order
)
