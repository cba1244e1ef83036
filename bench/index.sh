#!/usr/bin/env bash
# bench/index.sh -- index time, MB/s and peak memory of `rlm index` on real
# trees, with the I/O floor (reading the same .go files with cat) measured
# in the same run as the baseline.
#
#   bash bench/index.sh [RUNS] [ROOT...]
#
# Defaults: 5 runs over $(go env GOROOT)/src/net/http and $(go env GOROOT)/src.
# Prints one markdown row per root: median seconds, MB/s, median peak RSS,
# and the ratio to the I/O floor. Needs /usr/bin/time (Debian package time).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
runs="${1:-5}"
shift || true
roots=("$@")
if [ ${#roots[@]} -eq 0 ]; then
	roots=("$(go env GOROOT)/src/net/http" "$(go env GOROOT)/src")
fi
bin="$(mktemp -d)/rlm"
go build -o "$bin" ./cmd/rlm

median() { sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

echo "| tree | files | MB | index s (median of $runs) | MB/s | peak RSS MB | I/O floor s | index / floor |"
echo "|---|---|---|---|---|---|---|---|"
for root in "${roots[@]}"; do
	secs=() rss=() floor=() json=""
	for _ in $(seq "$runs"); do
		# The I/O floor: read every .go file the walker would read (not under
		# testdata/, vendor/ or hidden directories).
		f=$( { /usr/bin/time -f "%e" sh -c "find '$root' \( -name testdata -o -name vendor -o -name '.*' \) -prune -o -name '*.go' -print0 | xargs -0 cat > /dev/null"; } 2>&1 | tail -1)
		floor+=("$f")
		out=$( { /usr/bin/time -f "TIME %e %M" "$bin" index --in-memory --embedder none --json --root "$root"; } 2>&1)
		json=$(echo "$out" | grep '^{')
		t=$(echo "$out" | awk '/^TIME/ {print $2}')
		m=$(echo "$out" | awk '/^TIME/ {print $3}')
		secs+=("$t")
		rss+=("$m")
	done
	files=$(echo "$json" | sed -E 's/.*"files":([0-9]+).*/\1/')
	bytes=$(echo "$json" | sed -E 's/.*"bytes":([0-9]+).*/\1/')
	ms=$(printf '%s\n' "${secs[@]}" | median)
	mr=$(printf '%s\n' "${rss[@]}" | median)
	mf=$(printf '%s\n' "${floor[@]}" | median)
	awk -v r="$(basename "$(dirname "$root")")/$(basename "$root")" -v f="$files" -v b="$bytes" -v s="$ms" -v m="$mr" -v fl="$mf" \
		'BEGIN { printf "| %s | %d | %.1f | %.2f | %.1f | %.0f | %.2f | %.0fx |\n", r, f, b/1e6, s, b/1e6/s, m/1024, fl, (fl > 0 ? s/fl : 0) }'
done
