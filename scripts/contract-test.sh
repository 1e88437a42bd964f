#!/usr/bin/env bash
# Contract fuzzing: start a throw-away server on SQLite, sign up a user, and
# run schemathesis against the OpenAPI document the server serves. Fails on any
# 5xx, undocumented status code, response that breaks the schema, or id written
# in upper case (lowercase_ids, scripts/contract_checks.py).
#
# Tunables (environment):
#   ATELIER_BIN             server binary (default .build/debug/atelier)
#   CONTRACT_MAX_EXAMPLES   test cases per operation and phase (default 30)
#   CONTRACT_TIME_LIMIT     hard limit for the fuzzer in seconds (default 900)
#   CONTRACT_SEED           fixed seed to reproduce a run (schemathesis prints the one it used)
#   CONTRACT_OPERATIONS     space-separated operation ids: fuzz only these (while working on them;
#                           CI fuzzes every operation)
set -euo pipefail

repo="$(cd "$(dirname "$0")/.." && pwd)"
cd "$repo"
bin="${ATELIER_BIN:-$repo/.build/debug/atelier}"
venv="$repo/.venv"
max_examples="${CONTRACT_MAX_EXAMPLES:-30}"
# Access tokens live 15 minutes; a longer run would only see 401s at the end.
time_limit="${CONTRACT_TIME_LIMIT:-900}"
artifacts="$repo/test-artifacts/contract"
export NO_PROXY="127.0.0.1,localhost${NO_PROXY:+,$NO_PROXY}" no_proxy="127.0.0.1,localhost${no_proxy:+,$no_proxy}"

if [ ! -x "$bin" ]; then
  echo "contract-test: $bin not found; build it with 'swift build' (or set ATELIER_BIN)" >&2
  exit 1
fi
if [ ! -x "$venv/bin/schemathesis" ]; then
  echo "contract-test: $venv/bin/schemathesis not found; run 'make venv'" >&2
  exit 1
fi

tmp="$(mktemp -d)"
server_pid=""
cleanup() {
  local status=$?
  if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
    kill -TERM "$server_pid" 2>/dev/null || true
    for _ in $(seq 1 50); do
      kill -0 "$server_pid" 2>/dev/null || break
      sleep 0.2
    done
    kill -KILL "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  if [ "$status" -ne 0 ] && [ -f "$tmp/server.log" ]; then
    echo "--- atelier server log (last 300 lines) ---" >&2
    tail -n 300 "$tmp/server.log" | cut -c1-2000 >&2
  fi
  rm -rf "$tmp"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

port="$("$venv/bin/python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
base="http://127.0.0.1:$port"
mkdir -p "$tmp/data" "$artifacts"

echo "contract-test: starting $bin on $base"
env DATA_DIR="$tmp/data" \
    DATABASE_URL="sqlite:$tmp/data/atelier.sqlite" \
    PUBLIC_BASE_URL="$base" \
    LOG_LEVEL=warning \
    "$bin" serve --hostname 127.0.0.1 --port "$port" >"$tmp/server.log" 2>&1 </dev/null &
server_pid=$!

for _ in $(seq 1 300); do
  if ! kill -0 "$server_pid" 2>/dev/null; then
    echo "contract-test: the server exited during start-up" >&2
    exit 1
  fi
  if curl -fsS -o /dev/null --max-time 2 "$base/health" 2>/dev/null; then
    break
  fi
  sleep 0.2
done
curl -fsS -o /dev/null --max-time 5 "$base/health" || { echo "contract-test: no healthy server after 60s" >&2; exit 1; }

email="contract-$(date +%s)-$$@example.com"
signup="$(curl -sS --max-time 30 -X POST "$base/api/v1/auth/signup" \
  -H 'Content-Type: application/json' \
  -d "{\"email\": \"$email\", \"password\": \"contract fuzz password 1\", \"displayName\": \"Contract Fuzzer\"}" \
  -w '\n%{http_code}')"
status="${signup##*$'\n'}"
body="${signup%$'\n'*}"
if [ "$status" != 201 ]; then
  echo "contract-test: sign-up answered $status: $body" >&2
  exit 1
fi
token="$(printf '%s' "$body" | "$venv/bin/python" -c 'import json, sys; print(json.load(sys.stdin)["accessToken"])')"

seed_args=()
if [ -n "${CONTRACT_SEED:-}" ]; then
  seed_args=(--seed "$CONTRACT_SEED")
fi
for operation in ${CONTRACT_OPERATIONS:-}; do
  seed_args+=(--include-operation-id "$operation")
done

# The spec's servers entry is the relative "/api/v1", so the base URL is given
# explicitly. DELETE /me (deleteMe) is excluded: should it ever succeed, the
# token's user is gone and every later operation would only see 401s. So is
# POST /auth/logout-everywhere (logOutEverywhere), for the same reason: it takes
# no input to fuzz, and SignOutEverywhereTests covers it.
# POST /auth/logout stays in: it acts on the refresh token in its body, which
# the fuzzer cannot guess, so it cannot end this run's session.
echo "contract-test: schemathesis against $base/api/v1 (max $max_examples examples, ${time_limit}s limit)"
SCHEMATHESIS_HOOKS="$repo/scripts/contract_checks.py" timeout --kill-after=30 "$time_limit" \
  "$venv/bin/schemathesis" --no-color run "$base/api/v1/openapi.yaml" \
    --url "$base/api/v1" \
    --header "Authorization: Bearer $token" \
    --checks not_a_server_error,status_code_conformance,response_schema_conformance,lowercase_ids \
    --exclude-operation-id deleteMe \
    --exclude-operation-id logOutEverywhere \
    --max-examples "$max_examples" \
    --workers 2 \
    --request-timeout 15 \
    --generation-database none \
    --report junit --report-dir "$artifacts" \
    "${seed_args[@]}"
