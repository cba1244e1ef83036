#!/usr/bin/env bash
# scripts/test.sh -- the one command that runs all of rlm's tests.
#
# It needs Go (1.26) and Node.js 20+ with npm, and installs the rest:
# Go modules (go mod download) and the npm package that ships a Chroma
# server (scripts/chroma-server.sh, first run only). It starts that Chroma
# server on 127.0.0.1 for the integration tests, runs go vet and
# go test ./..., then stops the server, whatever happened.
#
# Extra arguments go to go test, e.g. scripts/test.sh -run TestRules -v.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

export RLM_CHROMA_PORT="${RLM_CHROMA_PORT:-$((18000 + RANDOM % 1000))}"
echo "== go mod download"
go mod download

echo "== starting Chroma on 127.0.0.1:$RLM_CHROMA_PORT"
eval "$(scripts/chroma-server.sh start)"
trap 'scripts/chroma-server.sh stop || true' EXIT

echo "== go vet ./..."
go vet ./...

echo "== go test ./..."
go test -count=1 "$@" ./...
