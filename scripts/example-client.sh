#!/usr/bin/env bash
# Runs AtelierKit's example client (Clients/AtelierKit/Examples/Shopper) against the server
# `make run` starts, in a scratch data folder on a free port, and fails when the example does.
# RUN_CONFIG defaults to debug here: the release build `make run` makes by default would add
# about 20 minutes to CI, and the example checks the SDK against the server, not its speed.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
data=$(mktemp -d)
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
log="$data/server.log"
server_pid=
cleanup() {
  if [ -n "$server_pid" ]; then kill -- "-$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
  rm -rf "$data"
}
trap cleanup EXIT

# The example's own build first (the SDK as an app builds it), while nothing else is running. SwiftPM
# keeps its build plan for a path dependency when files were only added to it (the new files are
# then missing); dropping the plan makes it look again, at the cost of a second.
(cd Clients/AtelierKit/Examples/Shopper && rm -f .build/debug.yaml && swift build)

# `make run` in its own process group, so that stopping it stops the server it execs.
set -m
env -u DATABASE_URL DATA_DIR="$data" PORT="$port" HOST=127.0.0.1 RUN_CONFIG="${RUN_CONFIG:-debug}" \
  PUBLIC_BASE_URL="http://127.0.0.1:$port" make --no-print-directory run >"$log" 2>&1 &
server_pid=$!
set +m
for _ in $(seq 1 600); do
  if curl -fsS "http://127.0.0.1:$port/health" >/dev/null 2>&1; then break; fi
  if ! kill -0 "$server_pid" 2>/dev/null; then cat "$log" >&2; echo "make run exited before serving" >&2; exit 1; fi
  sleep 1
done
curl -fsS "http://127.0.0.1:$port/health" >/dev/null || { tail -50 "$log" >&2; echo "no answer on port $port" >&2; exit 1; }

(cd Clients/AtelierKit/Examples/Shopper && swift run --skip-build Shopper "http://127.0.0.1:$port")
