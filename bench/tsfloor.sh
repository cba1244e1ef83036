#!/usr/bin/env bash
# bench/tsfloor.sh -- the tree-sitter floor of a cold index against
# Universal Ctags, in the same run, alternating.
#
#   bash bench/tsfloor.sh ROOT [ROUNDS]
#
# Per round: ctags over ROOT's .go files (outside testdata, vendor and
# hidden directories: the files bench/tsfloor parses), then bench/tsfloor
# with -query none (tree-sitter's parse alone) and -query tags (the parse
# plus tree-sitter-go's own tags query, every match visited). Prints wall
# and CPU (user + system) seconds of each; the ratios to ctags are the
# figures to read on a shared machine. Needs /usr/bin/time and ctags.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
root="$1"
rounds="${2:-3}"
bin="$(mktemp -d)/tsfloor"
go build -o "$bin" ./bench/tsfloor
list() { find "$root" \( -name testdata -o -name vendor -o -name '.*' \) -prune -o -name '*.go' -type f -print; }
for r in $(seq "$rounds"); do
	echo "round $r load $(cut -d' ' -f1 /proc/loadavg)"
	list | { /usr/bin/time -f "CTAGS wall %e s cpu %U+%S s" ctags --languages=Go --fields=+n -L - -f /dev/null; } 2>&1 | grep CTAGS
	"$bin" -root "$root" -query none
	"$bin" -root "$root" -query tags
done
