#!/usr/bin/env bash
# scripts/mutants.sh -- break the production code on purpose, once per
# guarantee a test claims, and check that the test notices.
#
# Each file scripts/mutants/*.sh declares mutants, one line each:
#
#   mutant NAME FILE 'SED-EXPRESSION' PACKAGE [go test flags...]
#
# The working tree is never touched. The script copies the repository as
# it is now (tracked and untracked, not ignored files, uncommitted changes
# included) to a temporary directory once; for each mutant it applies the
# sed expression to FILE in that copy (it must change the file), runs
# `go test -count=1 -timeout T PACKAGE flags...` there, and puts FILE back.
# The Go build cache keeps the reruns fast.
#
# Each mutant ends as one of:
#   killed    the tests failed before the timeout: the guarantee is proved
#   SURVIVED  the tests passed: a test does not prove its name
#   HUNG      the tests ran into the timeout (go test -timeout, default
#             MUTANT_TIMEOUT=180s): a broken guarantee must make its test
#             fail, never hang, so this counts against the suite too
#   BROKEN    the file is missing, the sed changed nothing, or the mutant
#             does not compile (a build failure proves nothing)
# The script exits 1 unless every mutant is killed.
#
#   bash scripts/mutants.sh                       # every mutant
#   bash scripts/mutants.sh walker honest         # only those files
#   bash scripts/mutants.sh -l                    # list them
#   bash scripts/mutants.sh --table docs/MUTANTS.md   # also write the table
#   MUTANT_LOGS=/tmp/m bash scripts/mutants.sh honest  # keep each go test log
#   MUTANT_ONLY='budget' bash scripts/mutants.sh honest # names matching a regex
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
root=$PWD

list=0 table=""
while [[ $# -gt 0 ]]; do
	case "$1" in
	-l) list=1; shift ;;
	--table) table=$2; shift 2 ;;
	--table=*) table=${1#--table=}; shift ;;
	-*) echo "usage: $0 [-l] [--table FILE] [AREA...]" >&2; exit 2 ;;
	*) break ;;
	esac
done
files=(scripts/mutants/*.sh)
only=${MUTANT_ONLY:-}
if [[ $# -gt 0 ]]; then files=(); for n in "$@"; do files+=("scripts/mutants/$n.sh"); done; fi
timeout_go=${MUTANT_TIMEOUT:-180s}
timeout_secs=${timeout_go%s}
[[ $timeout_secs =~ ^[0-9]+$ ]] || { echo "MUTANT_TIMEOUT must be seconds, like 180s" >&2; exit 2; }

copy="" logs=""
if [[ $list == 0 ]]; then
	work=$(mktemp -d "${TMPDIR:-/tmp}/rlm-mutants.XXXXXX")
	trap 'rm -rf "$work"' EXIT
	copy=$work/repo logs=${MUTANT_LOGS:-$work/logs}
	mkdir -p "$copy" "$logs"
	git ls-files -z --cached --others --exclude-standard |
		while IFS= read -r -d '' f; do [[ -e $f || -L $f ]] && printf '%s\0' "$f"; done |
		tar --null -T - -cf - | tar -xf - -C "$copy" || { echo "copying the repository failed" >&2; exit 2; }
fi

# What is tested: HEAD, and whether the tree differs from it (a --table
# file aside), as copied.
commit="$(git rev-parse --short HEAD)"
git diff --quiet HEAD -- . ${table:+":(exclude)$table"} 2>/dev/null || commit+=" (with uncommitted changes)"

survived=0 killed=0 n=0
rows=()
record() { # outcome name seconds
	rows+=("| ${2//|/\\|} | $1 | $3 |")
}
mutant() {
	local name=$1 file=$2 expr=$3 pkg=$4; shift 4
	if [[ -n $only && ! $name =~ $only ]]; then return; fi
	if [[ $list == 1 ]]; then printf '%s\t%s\t%s\n' "$name" "$file" "$pkg $*"; return; fi
	n=$((n + 1))
	if [[ ! -f $copy/$file ]]; then
		echo "BROKEN:   $name (no such file: $file)"
		survived=$((survived + 1)); record BROKEN "$name" -
		return
	fi
	sed -i -e "$expr" "$copy/$file"
	if cmp -s "$copy/$file" "$root/$file"; then
		echo "BROKEN:   $name (sed changed nothing in $file)"
		survived=$((survived + 1)); record BROKEN "$name" -
		return
	fi
	local log=$logs/$n.log start=$SECONDS rc=0
	(cd "$copy" && timeout -k 10 $((timeout_secs + 120)) go test -count=1 -timeout "${timeout_secs}s" "$pkg" "$@") >"$log" 2>&1 || rc=$?
	local secs=$((SECONDS - start))
	cp "$root/$file" "$copy/$file"
	if [[ $rc == 0 ]]; then
		echo "SURVIVED: $name (${secs}s; $file; go test $pkg $*)"
		survived=$((survived + 1)); record SURVIVED "$name" "$secs"
	elif [[ $rc == 124 ]] || grep -q '^panic: test timed out after' "$log"; then
		echo "HUNG:     $name (${secs}s; go test $pkg $* reached the ${timeout_secs}s timeout)"
		survived=$((survived + 1)); record HUNG "$name" "$secs"
	elif grep -q -E '\[(build|setup) failed\]|^# ' "$log" && ! grep -q -E '^(--- FAIL|FAIL: |panic: )' "$log"; then
		echo "BROKEN:   $name (${secs}s; does not compile:)"
		grep -v '^FAIL' "$log" | head -n 5 | sed 's/^/          /'
		survived=$((survived + 1)); record BROKEN "$name" "$secs"
	else
		echo "killed:   $name (${secs}s)"
		killed=$((killed + 1)); record killed "$name" "$secs"
	fi
}

for f in "${files[@]}"; do
	if [[ ! -f $f ]]; then echo "no such mutant file: $f" >&2; exit 2; fi
	# shellcheck source=/dev/null
	source "$f"
done
[[ $list == 1 ]] && exit 0
echo "$killed killed, $survived not killed"
if [[ -n $table ]]; then
	{
		echo "# Mutants: last run"
		echo
		echo "Written by \`bash scripts/mutants.sh --table $table${*:+ $*}\`; see that script for what each"
		echo "outcome means. Each mutant breaks one guarantee in a temporary copy of the"
		echo "repository and runs the tests named in \`scripts/mutants/*.sh\`."
		echo
		echo "- when: $(date -u +%Y-%m-%dT%H:%MZ)"
		echo "- commit: $commit"
		echo "- $(go version)"
		echo "- result: $killed killed, $survived not killed, ${SECONDS}s in all"
		[[ -z ${RLM_CHROMA_URL:-} ]] && echo "- RLM_CHROMA_URL unset: the mutants that need a Chroma server were not run"
		echo
		echo "| mutant | outcome | seconds |"
		echo "| --- | --- | ---: |"
		printf '%s\n' "${rows[@]}"
	} >"$table"
	echo "table written to $table"
fi
[[ $survived == 0 ]]
