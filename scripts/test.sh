#!/usr/bin/env bash
# scripts/test.sh -- the one command that runs all of rlm's tests.
#
# It needs Go (1.26) and Node.js 20+ with npm, and installs the rest:
# Go modules (go mod download) and the npm packages of package.json (npm
# ci, through scripts/chroma-server.sh, first run only): the one that ships
# a Chroma server, and the MCP TypeScript SDK whose client drives `rlm mcp`
# in cmd/rlm's acceptance test. It starts that Chroma server on 127.0.0.1
# for the integration tests, runs go vet and go test ./..., then stops the
# server, whatever happened.
#
# Extra arguments go to go test, e.g. scripts/test.sh -run TestRules -v.
# With --mutants first it then also runs scripts/mutants.sh (every mutant,
# the Chroma ones included, about 5 minutes on 2 cores) and writes its
# table to docs/MUTANTS.md; it exits non-zero unless every mutant is killed.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

mutants=0
if [[ "${1:-}" == "--mutants" ]]; then
	mutants=1
	shift
fi

export RLM_CHROMA_PORT="${RLM_CHROMA_PORT:-$((18000 + RANDOM % 1000))}"
echo "== go mod download"
go mod download

echo "== starting Chroma on 127.0.0.1:$RLM_CHROMA_PORT"
trap 'scripts/chroma-server.sh stop || true' EXIT
# Fail fast: without a healthy server the Chroma lanes would skip and the
# run could go green without them. (`eval "$(cmd)"` would hide cmd's exit
# status, hence the assignment first.)
if ! chroma_env="$(scripts/chroma-server.sh start)"; then
	echo "test.sh: the Chroma server did not become healthy; stopping before any test" >&2
	exit 1
fi
eval "$chroma_env"
if [[ -z "${RLM_CHROMA_URL:-}" ]] || ! scripts/chroma-server.sh status >/dev/null 2>&1; then
	echo "test.sh: no healthy Chroma server at '${RLM_CHROMA_URL:-}'; stopping before any test" >&2
	exit 1
fi

echo "== go vet ./..."
go vet ./...

echo "== go test ./..."
go test -count=1 "$@" ./...

if [[ $mutants == 1 ]]; then
	echo "== scripts/mutants.sh"
	bash scripts/mutants.sh --table docs/MUTANTS.md
fi
