#!/usr/bin/env bash
# bench/scale.sh -- the scaling curve of issue 13: the same figures on
# deterministic 10 %, 30 % and 100 % subsets of one corpus, a copy of
# $(go env GOROOT)/src (as go/) plus the Python standard library (as py/;
# without site-packages, __pycache__, lib-dynload and the config-* build
# directory, which hold no standard-library source).
#
#   bash bench/scale.sh [PCT...]          # default: 10 30 100
#
# A file is in the PCT subset when the first 8 hex digits of the SHA-1 of
# its path (relative to the corpus, e.g. "go/net/http/server.go"), read as
# a number, are below PCT % of 2^32: the subsets are nested and the same on
# every machine. The toolchain and the Python installation are only read:
# the corpus is a copy under the work directory, each subset hard-links
# its files from it (the one file the edit step changes is copied first),
# and the knowledge base and search index are written beside the subset
# (--db), never inside it.
#
# Per subset, in one run: Universal Ctags on the same tree
# (`ctags -R --fields=+n`, every language it knows; the tags file is
# written beside the subset and removed), cold `rlm index` (empty
# knowledge base) wall seconds and peak RSS (/usr/bin/time; its
# "snapshot" and "search index" parts from the JSON summary), the
# knowledge base and search index bytes against the source
# bytes rlm indexed, one exact and one hybrid query (`rlm search`, one
# process per query as a user runs it: the median of RUNS wall times and
# the largest peak RSS), and a one-file edit (a function appended to a Go
# file) followed by `rlm index`, whose answer must then find the new
# function. The load average is printed before and after each subset (the
# machine is shared).
#
# The hybrid query runs with a rules layer that trusts the embedder's
# vectors (vectors.pl with trusted_vectors/1 always true), so that the
# planner answers the description with hybrid search, as it does with a
# learned embedder; the script checks the plan's first step is hybrid.
#
# Environment:
#   RLM_SCALE_WORK      work directory (default: a new temporary one,
#                       removed at exit; a given one is kept)
#   RLM_SCALE_EMBEDDER  embedder for rlm index and search (default local)
#   RLM_SCALE_RUNS      runs per query (default 3)
#   RLM_SCALE_BACKEND   embedded (default) or chroma (needs RLM_CHROMA_URL,
#                       see scripts/chroma-server.sh): then the last
#                       column is the growth of the server's data directory
#                       (RLM_CHROMA_DATA) during the subset and the
#                       server's resident and peak memory after it
#                       (RLM_CHROMA_PID)
#
# Needs universal-ctags, python3 and /usr/bin/time. Prints the raw figures
# of each step on stderr and one markdown row per subset on stdout.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
pcts=("$@")
if [ ${#pcts[@]} -eq 0 ]; then
	pcts=(10 30 100)
fi
embedder="${RLM_SCALE_EMBEDDER:-local}"
runs="${RLM_SCALE_RUNS:-3}"
backend="${RLM_SCALE_BACKEND:-embedded}"
if [ -n "${RLM_SCALE_WORK:-}" ]; then
	work="$RLM_SCALE_WORK"
	mkdir -p "$work"
else
	work="$(mktemp -d)"
	trap 'rm -rf "$work"' EXIT
fi
goroot="$(go env GOROOT)/src"
pystd="$(python3 -c 'import sysconfig; print(sysconfig.get_path("stdlib"))')"
bin="$work/rlm"
go build -o "$bin" ./cmd/rlm
backendflags=(--embedder "$embedder" --backend "$backend")

log() { echo "scale: $*" >&2; }
load() { cut -d' ' -f1-3 /proc/loadavg; }
# timed CMD...: runs CMD with stdout in $work/out, stderr in $work/err, and
# prints "SECONDS PEAK_RSS_KB".
timed() {
	/usr/bin/time -f "TIME %e %M" -o "$work/time" "$@" > "$work/out" 2> "$work/err" || {
		log "failed: $*"
		cat "$work/err" >&2
		return 1
	}
	awk '/^TIME/ {print $2, $3}' "$work/time"
}
median() { sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
json() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d'"$1"')' "$work/out"; }

# The corpus, copied once.
if [ ! -d "$work/corpus" ]; then
	log "copying $goroot and $pystd into $work/corpus"
	python3 - "$goroot" "$pystd" "$work/corpus.tmp" <<'PY'
import os, shutil, sys
go, py, out = sys.argv[1:4]
skip_py = {"site-packages", "__pycache__", "lib-dynload"}
for src, name in ((go, "go"), (py, "py")):
    for d, dirs, files in os.walk(src):
        rel = os.path.relpath(d, src)
        dirs[:] = sorted(x for x in dirs if not (name == "py" and (x in skip_py or (rel == "." and x.startswith("config-")))))
        for f in files:
            p = os.path.join(d, f)
            if os.path.islink(p) or not os.path.isfile(p):
                continue
            t = os.path.join(out, name, rel, f)
            os.makedirs(os.path.dirname(t), exist_ok=True)
            shutil.copyfile(p, t)
PY
	mv "$work/corpus.tmp" "$work/corpus"
fi

# The rules layer that trusts the embedder's vectors (hybrid for a description).
mkdir -p "$work/trust"
sed 's/^    \\+ memberchk(embedder(lexical), Avail)\.$/    Avail = Avail./' rules/retrieval/vectors.pl > "$work/trust/vectors.pl"
grep -q '^    Avail = Avail\.$' "$work/trust/vectors.pl" || { log "vectors.pl changed: cannot make the trusting layer"; exit 1; }

exact_q="where is Reader defined?"
hybrid_q="read the response body and close the connection"

echo "| subset | files (rlm) | source MB (rlm) | tree MB | ctags s | ctags RSS MB | cold index s (snapshot + search index) | index ÷ ctags | peak RSS MB | KB MB | search index MB | (KB + index) ÷ source | exact query s (RSS MB) | hybrid query s (RSS MB) | one-file edit → index s (RSS MB) | load before → after | Chroma data MB (server RSS / peak MB) |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|"
for pct in "${pcts[@]}"; do
	tree="$work/t$pct"
	db="$work/db$pct"
	rm -rf "$tree" "$db"
	mkdir -p "$db"
	treebytes=$(python3 - "$work/corpus" "$tree" "$pct" <<'PY'
import hashlib, os, sys
src, out, pct = sys.argv[1], sys.argv[2], int(sys.argv[3])
limit = pct * (1 << 32) // 100
total = 0
for d, dirs, files in os.walk(src):
    dirs.sort()
    for f in sorted(files):
        p = os.path.join(d, f)
        rel = os.path.relpath(p, src)
        if int(hashlib.sha1(rel.encode()).hexdigest()[:8], 16) >= limit:
            continue
        t = os.path.join(out, rel)
        os.makedirs(os.path.dirname(t), exist_ok=True)
        os.link(p, t)
        total += os.path.getsize(p)
print(total)
PY
)
	before=$(load)
	chroma0=0
	[ -n "${RLM_CHROMA_DATA:-}" ] && chroma0=$(du -sb "$RLM_CHROMA_DATA" | cut -f1)
	log "subset $pct %: $(find "$tree" -type f | wc -l) files, $treebytes bytes; load $before"

	r=$(timed ctags -R --fields=+n -f "$work/tags" "$tree"); read -r cts ctr <<<"$r"; rm -f "$work/tags"
	log "ctags: $cts s, $ctr KB"

	r=$(timed "$bin" index "${backendflags[@]}" --json --root "$tree" --db "$db/kb.sqlite"); read -r is ir <<<"$r"
	files=$(json '["files"]')
	bytes=$(json '["bytes"]')
	snap=$(json '["extract_ms"]')
	build=$(json '["store_ms"]')
	log "cold index: $is s, $ir KB, $files files, $bytes bytes, snapshot $snap ms, search index $build ms"

	kb=$(du -cb "$db"/kb.sqlite* | tail -1 | cut -f1)
	all=$(du -cb "$db" | tail -1 | cut -f1)
	idx=$((all - kb))
	log "on disk: knowledge base $kb bytes, search index $idx bytes"

	es=() er=0 hs=() hr=0
	for _ in $(seq "$runs"); do
		r=$(timed "$bin" search "${backendflags[@]}" --json --root "$tree" --db "$db/kb.sqlite" "$exact_q"); read -r s m <<<"$r"
		es+=("$s"); [ "$m" -gt "$er" ] && er=$m
		r=$(timed "$bin" search "${backendflags[@]}" --json --rules "$work/trust" --root "$tree" --db "$db/kb.sqlite" "$hybrid_q"); read -r s m <<<"$r"
		hs+=("$s"); [ "$m" -gt "$hr" ] && hr=$m
		[ "$(json '["plan"][0]["strategy"]')" = hybrid ] || { log "the hybrid query was not planned as hybrid"; exit 1; }
	done
	log "exact query: ${es[*]} s, $er KB; hybrid query: ${hs[*]} s, $hr KB"

	# One file edited: the first Go file (not a test, not under testdata)
	# in path-hash order gains a function; then rlm index, whose next
	# answer must find it.
	edit=$(cd "$tree" && find go -name '*.go' ! -name '*_test.go' ! -path '*/testdata/*' ! -path '*/vendor/*' | python3 -c 'import hashlib,sys; print(min(sys.stdin.read().split(), key=lambda p: hashlib.sha1(p.encode()).hexdigest()))')
	cp "$tree/$edit" "$tree/$edit.copy" && mv "$tree/$edit.copy" "$tree/$edit" # break the hard link
	printf '\n// RlmScaleEdit is appended by bench/scale.sh.\nfunc RlmScaleEdit() int { return %d }\n' "$pct" >> "$tree/$edit"
	r=$(timed "$bin" index "${backendflags[@]}" --json --root "$tree" --db "$db/kb.sqlite"); read -r us ur <<<"$r"
	log "edit of $edit: rlm index $us s, $ur KB, snapshot $(json '["extract_ms"]') ms, search index $(json '["store_ms"]') ms"
	timed "$bin" search "${backendflags[@]}" --json --root "$tree" --db "$db/kb.sqlite" "where is RlmScaleEdit defined?" > /dev/null
	[ "$(json '["hits"][0]["symbol"]')" = RlmScaleEdit ] || { log "the edited function is not found after the update"; exit 1; }

	chroma="–"
	if [ "$backend" = chroma ]; then
		grow=$(( $([ -n "${RLM_CHROMA_DATA:-}" ] && du -sb "$RLM_CHROMA_DATA" | cut -f1 || echo 0) - chroma0 ))
		mem="?"
		[ -n "${RLM_CHROMA_PID:-}" ] && mem=$(awk '/^VmRSS/ {r=$2} /^VmHWM/ {h=$2} END {printf "%.0f / %.0f", r/1024, h/1024}' /proc/"$RLM_CHROMA_PID"/status)
		chroma=$(awk -v g="$grow" -v m="$mem" 'BEGIN { printf "%.1f (%s)", g/1e6, m }')
		log "chroma: $chroma"
	fi
	after=$(load)
	awk -v p="$pct" -v f="$files" -v b="$bytes" -v tb="$treebytes" -v cts="$cts" -v ctr="$ctr" \
		-v is="$is" -v snap="$snap" -v build="$build" -v ir="$ir" -v kb="$kb" -v idx="$idx" \
		-v es="$(printf '%s\n' "${es[@]}" | median)" -v er="$er" -v hs="$(printf '%s\n' "${hs[@]}" | median)" -v hr="$hr" \
		-v us="$us" -v ur="$ur" -v lb="$before" -v la="$after" -v ch="$chroma" \
		'BEGIN { printf "| %d %% | %d | %.1f | %.1f | %.2f | %.0f | %.1f (%.1f + %.1f) | %.1fx | %.0f | %.1f | %.1f | %.2fx | %.2f (%.0f) | %.2f (%.0f) | %.2f (%.0f) | %s → %s | %s |\n",
			p, f, b/1e6, tb/1e6, cts, ctr/1024, is, snap/1000, build/1000, is/cts, ir/1024, kb/1e6, idx/1e6, (kb+idx)/b,
			es, er/1024, hs, hr/1024, us, ur/1024, lb, la, ch }'
done
