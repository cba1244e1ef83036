#!/usr/bin/env bash
# scripts/mutants.sh -- break the production code on purpose, once per
# guarantee a test claims, and check that the test notices.
#
# Each file scripts/mutants/*.sh declares mutants, one line each:
#
#   mutant NAME FILE 'SED-EXPRESSION' PACKAGE [go test flags...]
#
# For each mutant this script applies the sed expression to FILE (it must
# change the file), runs `go test PACKAGE flags...`, expects it to FAIL,
# and restores FILE whatever happens. A mutant whose tests still pass is
# a test that does not prove its name; the script then exits 1.
#
#   bash scripts/mutants.sh              # every mutant
#   bash scripts/mutants.sh walker       # only scripts/mutants/walker.sh
#   bash scripts/mutants.sh -l           # list them
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

list=0
if [[ "${1:-}" == "-l" ]]; then list=1; shift; fi
files=(scripts/mutants/*.sh)
if [[ $# -gt 0 ]]; then files=(); for n in "$@"; do files+=("scripts/mutants/$n.sh"); done; fi

survived=0 killed=0
mutant() {
	local name=$1 file=$2 expr=$3 pkg=$4; shift 4
	if [[ $list == 1 ]]; then printf '%s\t%s\t%s\n' "$name" "$file" "$pkg $*"; return; fi
	if [[ ! -f $file ]]; then
		echo "BROKEN MUTANT (no such file): $name ($file)"
		survived=$((survived + 1))
		return
	fi
	local backup; backup=$(mktemp)
	cp "$file" "$backup"
	sed -i -e "$expr" "$file"
	if cmp -s "$file" "$backup"; then
		echo "BROKEN MUTANT (sed changed nothing): $name ($file)"
		survived=$((survived + 1))
		rm -f "$backup"
		return
	fi
	if go test -count=1 "$pkg" "$@" >/tmp/mutant.$$.log 2>&1; then
		echo "SURVIVED: $name ($file; go test $pkg $*)"
		survived=$((survived + 1))
	else
		echo "killed:   $name"
		killed=$((killed + 1))
	fi
	cp "$backup" "$file"
	rm -f "$backup" /tmp/mutant.$$.log
}

for f in "${files[@]}"; do
	# shellcheck source=/dev/null
	source "$f"
done
[[ $list == 1 ]] && exit 0
echo "$killed killed, $survived survived"
[[ $survived == 0 ]]
