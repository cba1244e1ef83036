#!/usr/bin/env bash
# bench/kb.sh -- the persistent knowledge base on real trees, against
# Universal Ctags and the I/O floor, measured in the same run.
#
#   bash bench/kb.sh [RUNS] [ROOT...]
#
# Defaults: 3 runs over $(go env GOROOT)/src and the Python standard library.
# Per tree: cold `rlm index` (empty database) seconds, files/s, MB/s and peak
# RSS; `ctags -R --fields=+n` on the same tree; the ratio; a warm snapshot of
# the unchanged tree (`rlm index` again: every file hashed, nothing
# extracted) against reading every byte once with cat (the I/O floor); the
# database size per MB of source. Needs universal-ctags and /usr/bin/time.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
runs="${1:-3}"
shift || true
roots=("$@")
if [ ${#roots[@]} -eq 0 ]; then
	roots=("$(go env GOROOT)/src" "$(python3 -c 'import sysconfig; print(sysconfig.get_path("stdlib"))')")
fi
bin="$(mktemp -d)/rlm"
go build -o "$bin" ./cmd/rlm
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# The source files the knowledge base reads (the I/O floor reads the same).
exts="-name '*.go' -o -name '*.py' -o -name '*.js' -o -name '*.mjs' -o -name '*.cjs' -o -name '*.jsx' -o -name '*.ts' -o -name '*.tsx' -o -name '*.rs' -o -name '*.java' -o -name '*.c' -o -name '*.h' -o -name '*.cc' -o -name '*.cpp' -o -name '*.cxx' -o -name '*.hpp' -o -name '*.hh' -o -name '*.hxx' -o -name '*.rb' -o -name '*.pl' -o -name '*.pro'"

median() { sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
timed() { { /usr/bin/time -f "TIME %e %M" "$@" > "$work/out" 2> "$work/err"; } 2>&1; grep '^TIME' "$work/err" | tail -1; }

echo "| tree | files | MB | cold index s | files/s | MB/s | peak RSS MB | ctags s | ctags RSS MB | index ÷ ctags | warm snapshot s | I/O floor s | warm ÷ floor | DB MB per source MB |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for root in "${roots[@]}"; do
	cold=() rss=() ct=() ctr=() warm=() floor=()
	for _ in $(seq "$runs"); do
		rm -rf "$work/db"; mkdir -p "$work/db"
		read -r _ s m < <(timed "$bin" index --embedder none --json --root "$root" --db "$work/db/kb.sqlite")
		cold+=("$s"); rss+=("$m")
		json=$(cat "$work/out")
		read -r _ s _ < <(timed "$bin" index --embedder none --json --root "$root" --db "$work/db/kb.sqlite")
		warm+=("$s")
		read -r _ s m < <(timed ctags -R --fields=+n -f "$work/tags" "$root")
		ct+=("$s"); ctr+=("$m")
		read -r _ s _ < <(timed sh -c "find '$root' \( -name testdata -o -name vendor -o -name node_modules -o -name '.?*' \) -prune -o -type f \( $exts \) -print0 | xargs -0 cat > /dev/null")
		floor+=("$s")
	done
	files=$(echo "$json" | sed -E 's/.*"files":([0-9]+).*/\1/')
	bytes=$(echo "$json" | sed -E 's/.*"bytes":([0-9]+).*/\1/')
	dbb=$(du -cb "$work"/db/kb.sqlite* | tail -1 | cut -f1)
	awk -v r="$root" -v f="$files" -v b="$bytes" -v c="$(printf '%s\n' "${cold[@]}" | median)" \
		-v m="$(printf '%s\n' "${rss[@]}" | median)" -v t="$(printf '%s\n' "${ct[@]}" | median)" \
		-v tm="$(printf '%s\n' "${ctr[@]}" | median)" -v w="$(printf '%s\n' "${warm[@]}" | median)" \
		-v fl="$(printf '%s\n' "${floor[@]}" | median)" -v db="$dbb" \
		'BEGIN { printf "| %s | %d | %.1f | %.1f | %.0f | %.2f | %.0f | %.2f | %.0f | %.1fx | %.2f | %.2f | %.1fx | %.2f |\n", r, f, b/1e6, c, f/c, b/1e6/c, m/1024, t, tm/1024, c/t, w, fl, (fl>0 ? w/fl : 0), db/b }'
done
