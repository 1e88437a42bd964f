#!/usr/bin/env bash
# Cold and incremental build times of one commit, for the README's cold-times table (issue 54).
#
#   scripts/measure-builds.sh COMMIT [OUT]     e.g. scripts/measure-builds.sh 611f4d9 /tmp/builds-before.txt
#
# Clones COMMIT into a scratch folder (a fresh clone: no .build, packages resolved from this machine's
# mirror), then measures with GNU time (wall seconds, user+system CPU seconds, peak resident memory of
# the largest process):
#   1. the cold release build of `atelier` (what `make run` builds before the first page);
#   2. a one-line edit in a domain service (Catalog's ProductService) and in Core (Core/Text/Slug.swift),
#      each rebuilt in release;
#   3. the cold debug build, then the same two one-line edits rebuilt in debug.
# Nothing else may build meanwhile (2 cores): run the before and the after commit in one sitting, one
# after the other. The edits are comments, so the code is the same; the compiler still rebuilds.
set -euo pipefail
commit="${1:?usage: scripts/measure-builds.sh COMMIT [OUT]}"
out="${2:-/tmp/builds-$commit.txt}"
repo="$(cd "$(dirname "$0")/.." && pwd)"
scratch="$(mktemp -d /tmp/atelier-builds-XXXXXX)"
trap 'rm -rf "$scratch"' EXIT

git clone --quiet "$repo" "$scratch/atelier"
cd "$scratch/atelier"
git checkout --quiet "$commit"

measure() {
  local label="$1"; shift
  /usr/bin/time -f "%e %U %S %M" -o "$scratch/time" "$@" > "$scratch/log" 2>&1 || { tail -30 "$scratch/log"; exit 1; }
  awk -v label="$label" '{ printf "%-28s wall %6.0f s  cpu %6.0f s  peak %5.2f GB\n", label, $1, $2 + $3, $4 / 1048576 }' \
    "$scratch/time" | tee -a "$out"
}

touch_line() {
  # A comment at the end of the file: the same program, a changed source.
  printf '\n// measure-builds %s\n' "$(date +%s%N)" >> "$1"
}

domain_file="Sources/Atelier/Catalog/Services/ProductService.swift"
core_file="Sources/Atelier/Core/Text/Slug.swift"
echo "# $commit ($(git log -1 --format=%cd --date=short)), $(nproc) cores, $(date -u +%FT%TZ)" | tee "$out"
measure "release cold" swift build -c release --product atelier
touch_line "$domain_file"; measure "release, domain edit" swift build -c release --product atelier
touch_line "$core_file"; measure "release, Core edit" swift build -c release --product atelier
measure "debug cold" swift build --product atelier
touch_line "$domain_file"; measure "debug, domain edit" swift build --product atelier
touch_line "$core_file"; measure "debug, Core edit" swift build --product atelier
echo "written to $out"
