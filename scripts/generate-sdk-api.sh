#!/usr/bin/env bash
# AtelierKit's generated types and client (Clients/AtelierKit/Sources/AtelierAPI/Generated), from
# openapi.yaml with swift-openapi-generator, checked in so that an app adding the SDK builds no
# generator (issue 52). `--check` regenerates into a scratch folder and fails when the checked-in
# files differ (make test runs it); without it, the files are written.
# The generator is the one the server's build plugin uses (built by `swift build`).
set -euo pipefail
cd "$(dirname "$0")/.."
generator=$(find .build -path '*/debug/swift-openapi-generator' -type f -perm -u+x 2>/dev/null | head -1)
if [ -z "$generator" ]; then
  swift build --product swift-openapi-generator >/dev/null
  generator=$(find .build -path '*/debug/swift-openapi-generator' -type f -perm -u+x | head -1)
fi
target=Clients/AtelierKit/Sources/AtelierAPI/Generated
out=$target
if [ "${1:-}" = "--check" ]; then
  out=$(mktemp -d)
  trap 'rm -rf "$out"' EXIT
fi
"$generator" generate openapi.yaml --config Clients/AtelierKit/openapi-generator-config.yaml \
  --output-directory "$out" >/dev/null 2>&1 || {
  "$generator" generate openapi.yaml --config Clients/AtelierKit/openapi-generator-config.yaml --output-directory "$out"
  exit 1
}
if [ "${1:-}" = "--check" ]; then
  if ! diff -r -q "$out" "$target" >/dev/null; then
    echo "AtelierKit's generated API differs from openapi.yaml; run scripts/generate-sdk-api.sh:" >&2
    diff -r -q "$out" "$target" >&2 || true
    exit 1
  fi
  echo "AtelierKit's generated API matches openapi.yaml."
fi
