#!/usr/bin/env bash
# bench/incremental.sh -- the search index across edits of a tree (issue
# 13): cold build, one file edited then the next Search (in a fresh
# project, as `rlm search` runs, and in a long-lived one; the search index
# update reported apart from the snapshot check), FILES files edited at
# once, the same snapshot's index built whole again (the baseline, in the
# same run), and the knowledge base and search index on disk against the
# source bytes — once per embedder.
#
#   bash bench/incremental.sh [RUNS] [FILES] [EMBEDDER...]
#
# Defaults: 5 one-file edits, 50 files, embedders none and local. The tree
# is a fresh copy of $(go env GOROOT)/src for each embedder (the benchmark
# edits it; the toolchain is never written), or of $RLM_BENCH_TREE.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
runs="${1:-5}"
files="${2:-50}"
shift 2 || shift $#
embedders=("$@")
if [ ${#embedders[@]} -eq 0 ]; then
	embedders=(none local)
fi
tree="${RLM_BENCH_TREE:-$(go env GOROOT)/src}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
go build -o "$work/incremental" ./bench/incremental
for e in "${embedders[@]}"; do
	rm -rf "$work/src"
	cp -r "$tree" "$work/src"
	"$work/incremental" -root "$work/src" -embedder "$e" -runs "$runs" -files "$files"
	echo
done
