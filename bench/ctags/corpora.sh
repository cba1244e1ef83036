#!/usr/bin/env bash
# bench/ctags/corpora.sh DIR -- the trees bench/ctags measures, exported
# into DIR (nothing is built; the trees are only read):
#
#   DIR/goroot   net/http, go/ast, go/parser, go/types, encoding/json,
#                strings and bufio of $(go env GOROOT)/src
#   DIR/pystd    asyncio, email, json, http, logging, unittest, importlib,
#                concurrent and the top-level modules of the Python standard
#                library of python3
#   DIR/<owner+name> for each public repository below, at the commit named:
#                from a bare mirror under $RLM_MIRROR/<owner+name>/repo when
#                there is one, else a shallow git clone of GitHub.
set -euo pipefail
dir=${1:?usage: $0 DIR}
mkdir -p "$dir"
goroot=$(go env GOROOT)/src
for d in net/http go/ast go/parser go/types encoding/json strings bufio; do
	mkdir -p "$dir/goroot/$(dirname "$d")"
	cp -r "$goroot/$d" "$dir/goroot/$d"
done
py=$(python3 -c 'import sysconfig; print(sysconfig.get_path("stdlib"))')
mkdir -p "$dir/pystd"
for d in asyncio email json http logging unittest importlib concurrent; do cp -r "$py/$d" "$dir/pystd/"; done
cp "$py"/*.py "$dir/pystd/"
while read -r repo commit; do
	out="$dir/${repo/\//+}"
	mkdir -p "$out"
	mirror="${RLM_MIRROR:-/nonexistent}/${repo/\//+}/repo"
	if [ -d "$mirror" ]; then
		git --git-dir="$mirror" archive "$commit" | tar -x -C "$out"
	else
		git -C "$out" init -q
		git -C "$out" fetch -q --depth 1 "https://github.com/$repo" "$commit"
		git -C "$out" checkout -q FETCH_HEAD
		rm -rf "$out/.git"
	fi
done <<'LIST'
expressjs/express a3714473feb3d2908add734d340e7755fd85e0a3
fmtlib/fmt 60ccad511fd680cb91d8b60a315759f71c67bef9
rack/rack 8bf4eb078498edc9105fb04add80d89c5340e60b
jqlang/jq 579e6f76cffd7643ba4002a2c3618a5ea710589a
google/gson 9835b6f90192f79cdf5300c528fc6212455fb6c1
BurntSushi/ripgrep 3fce3b5bb0236da2df6d99672afb8a719642eca7
vuejs/core e2bede96134f757aad5c5b33ac9be055022dbfc8
LIST
