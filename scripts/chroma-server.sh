#!/usr/bin/env bash
# chroma-server.sh — run a local Chroma server (no Python) for rlm's chroma
# integration tests and benchmarks.
#
#   scripts/chroma-server.sh start    # prints: export RLM_CHROMA_URL=http://127.0.0.1:PORT
#   scripts/chroma-server.sh stop
#   scripts/chroma-server.sh status
#
# The server is the Rust Chroma frontend shipped inside the npm package
# "chromadb" (CLI: node_modules/chromadb/dist/cli.mjs run), pinned in the repo
# root package.json. Its native binding is pinned by an npm override to
# chromadb-js-bindings-linux-x64-gnu 1.0.5 because newer builds need glibc
# 2.38.
#
# Environment:
#   RLM_CHROMA_PORT   port to listen on (default 18000), always on 127.0.0.1
#   RLM_CHROMA_STATE  directory for pid file, log and data
#                     (default ${TMPDIR:-/tmp}/rlm-chroma-$PORT)
#   RLM_CHROMA_DATA   persistence directory; if unset, a fresh temporary one
#                     is created at start and removed at stop
#   RLM_CHROMA_WAIT   seconds to wait for the heartbeat (default 20)
#
# Typical use:
#   eval "$(scripts/chroma-server.sh start)"
#   go test ./retrieval/chroma/ -count=1 -v
#   scripts/chroma-server.sh stop
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PORT="${RLM_CHROMA_PORT:-18000}"
HOST=127.0.0.1
STATE="${RLM_CHROMA_STATE:-${TMPDIR:-/tmp}/rlm-chroma-$PORT}"
PIDFILE="$STATE/chroma.pid"
DATAFILE="$STATE/data.path"
LOG="$STATE/chroma.log"
WAIT="${RLM_CHROMA_WAIT:-20}"
URL="http://$HOST:$PORT"
CLI="$ROOT/node_modules/chromadb/dist/cli.mjs"

log() { echo "chroma-server: $*" >&2; }

heartbeat() {
	if command -v curl >/dev/null 2>&1; then
		curl -fsS --max-time 2 "$URL/api/v2/heartbeat" >/dev/null 2>&1
	else
		node -e 'fetch(process.argv[1],{signal:AbortSignal.timeout(2000)}).then(r=>process.exit(r.ok?0:1),()=>process.exit(1))' "$URL/api/v2/heartbeat"
	fi
}

running_pid() {
	[[ -f "$PIDFILE" ]] || return 1
	local pid
	pid="$(cat "$PIDFILE")"
	[[ "$pid" =~ ^[0-9]+$ ]] && kill -0 "$pid" 2>/dev/null && { echo "$pid"; return 0; }
	return 1
}

# ensure_installed installs the root package.json's packages (npm ci when
# the lockfile exists) unless every one is present: chromadb and its native
# binding, and the MCP TypeScript SDK that cmd/rlm's MCP client test uses.
ensure_installed() {
	if [[ -f "$CLI" && -d "$ROOT/node_modules/chromadb-js-bindings-linux-x64-gnu" &&
		-f "$ROOT/node_modules/@modelcontextprotocol/sdk/package.json" ]]; then
		return 0
	fi
	command -v npm >/dev/null 2>&1 || { log "npm not found; install Node.js 20+"; exit 1; }
	log "installing chromadb and @modelcontextprotocol/sdk into $ROOT/node_modules (npm)"
	if [[ -f "$ROOT/package-lock.json" ]]; then
		(cd "$ROOT" && npm ci --no-audit --no-fund >&2)
	else
		(cd "$ROOT" && npm install --no-audit --no-fund >&2)
	fi
	[[ -f "$CLI" ]] || { log "npm install did not provide $CLI"; exit 1; }
}

start() {
	mkdir -p "$STATE"
	local pid
	if pid="$(running_pid)"; then
		if heartbeat; then
			log "already running (pid $pid)"
			echo "export RLM_CHROMA_URL=$URL"
			return 0
		fi
		log "pid $pid is alive but $URL does not answer; run '$0 stop' first"
		exit 1
	fi
	if heartbeat; then
		log "something not started by this script already answers on $URL; pick another RLM_CHROMA_PORT"
		exit 1
	fi
	ensure_installed

	local data
	if [[ -n "${RLM_CHROMA_DATA:-}" ]]; then
		data="$RLM_CHROMA_DATA"
		mkdir -p "$data"
		rm -f "$DATAFILE"
	else
		data="$(mktemp -d "$STATE/data.XXXXXX")"
		echo "$data" >"$DATAFILE"
	fi

	# setsid + nohup: the server outlives this shell; the node process is the
	# server itself (the Rust frontend runs in-process through the binding).
	ANONYMIZED_TELEMETRY=False CHROMA_ANONYMIZED_TELEMETRY=False \
		setsid nohup node "$CLI" run --path "$data" --host "$HOST" --port "$PORT" \
		>"$LOG" 2>&1 </dev/null &
	pid=$!
	echo "$pid" >"$PIDFILE"

	local deadline=$((SECONDS + WAIT))
	until heartbeat; do
		if ! kill -0 "$pid" 2>/dev/null; then
			log "server exited during startup; last log lines:"
			tail -n 20 "$LOG" >&2 || true
			rm -f "$PIDFILE"
			exit 1
		fi
		if ((SECONDS >= deadline)); then
			log "no heartbeat from $URL after ${WAIT}s; stopping pid $pid (log: $LOG)"
			kill "$pid" 2>/dev/null || true
			rm -f "$PIDFILE"
			exit 1
		fi
		sleep 0.2
	done
	log "started pid $pid on $URL (data: $data, log: $LOG)"
	echo "export RLM_CHROMA_URL=$URL"
}

stop() {
	local pid
	if ! pid="$(running_pid)"; then
		log "not running (no live pid in $PIDFILE)"
		rm -f "$PIDFILE"
		cleanup_data
		return 0
	fi
	kill -TERM "$pid" 2>/dev/null || true
	local i
	for ((i = 0; i < 100; i++)); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	if kill -0 "$pid" 2>/dev/null; then
		log "pid $pid ignored SIGTERM for 10s; sending SIGKILL"
		kill -KILL "$pid" 2>/dev/null || true
	fi
	rm -f "$PIDFILE"
	cleanup_data
	rm -f "$LOG"
	rmdir "$STATE" 2>/dev/null || true
	log "stopped pid $pid"
}

cleanup_data() {
	if [[ -f "$DATAFILE" ]]; then
		local data
		data="$(cat "$DATAFILE")"
		# Only ever remove the temporary directory this script created.
		case "$data" in
		"$STATE"/data.*) rm -rf -- "$data" ;;
		esac
		rm -f "$DATAFILE"
	fi
}

status() {
	local pid
	if pid="$(running_pid)" && heartbeat; then
		log "running (pid $pid) on $URL"
		echo "export RLM_CHROMA_URL=$URL"
		return 0
	fi
	log "not running on $URL"
	return 1
}

case "${1:-}" in
start) start ;;
stop) stop ;;
status) status ;;
*)
	echo "usage: $0 start|stop|status" >&2
	exit 2
	;;
esac
