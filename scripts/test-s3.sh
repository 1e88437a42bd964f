#!/usr/bin/env bash
# Runs the media test suites against the S3 backend: moto's S3 server on a loopback port
# stands in for a real bucket (SigV4, Range, conditional GETs, deletes).
set -euo pipefail
cd "$(dirname "$0")/.."

port=$(.venv/bin/python -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
log=$(mktemp)
.venv/bin/moto_server -H 127.0.0.1 -p "$port" >"$log" 2>&1 &
moto_pid=$!
finish() {
  status=$?
  kill "$moto_pid" 2>/dev/null || true
  if [ "$status" -ne 0 ]; then mkdir -p test-artifacts && cp "$log" test-artifacts/moto.log; fi
  rm -f "$log"
}
trap finish EXIT

for _ in $(seq 1 50); do
  curl -fsS -o /dev/null "http://127.0.0.1:$port/" && break
  sleep 0.2
done

MEDIA_STORE=s3 S3_ENDPOINT="http://127.0.0.1:$port" S3_BUCKET=atelier-test S3_REGION=us-east-1 \
  S3_ACCESS_KEY_ID=test S3_SECRET_ACCESS_KEY=test \
  swift test --filter "Media|AlbumZip"

puts=$(grep -c "PUT /atelier-test/" "$log" || true)
echo "test-s3: moto received $puts object uploads"
if [ "$puts" -eq 0 ]; then
  echo "test-s3: the S3 backend was not used" >&2
  exit 1
fi
