#!/usr/bin/env bash
# Install the Debian packages Atelier needs, but only those that are missing.
#
#   scripts/install-deps.sh            build/run/test dependencies
#   scripts/install-deps.sh browser    + headless Chromium and its driver (browser tests)
#   scripts/install-deps.sh postgres   + PostgreSQL server (scale-out tests)
#   scripts/install-deps.sh cluster    + HAProxy and PgBouncer (scripts/cluster)
#
# Several groups may be given at once. The Swift toolchain itself is not a
# Debian package; it is expected on PATH.
set -euo pipefail

# Packages needed to build, run and test the server. SQLite is vendored by
# sqlite-nio. Add new system libraries here.
BASE_PACKAGES=(
  ca-certificates
  curl
  unzip
  tzdata        # Foundation reads IANA time zones from /usr/share/zoneinfo
  zlib1g-dev    # NIO's compression support links against zlib
  python3
  python3-venv  # `make venv`
  pkg-config    # finds libvips for the CVips module
  libvips-dev   # the image pipeline (media)
  libvips-tools # vipsthumbnail, the media benchmark's yardstick
  libopencv-imgproc-dev # GrabCut, the closet's garment cut-outs (Sources/CutoutShim)
)
BROWSER_PACKAGES=(chromium chromium-driver)
POSTGRES_PACKAGES=(postgresql)
CLUSTER_PACKAGES=(haproxy pgbouncer)

wanted=("${BASE_PACKAGES[@]}")
for group in "$@"; do
  case "$group" in
    base) ;;
    browser) wanted+=("${BROWSER_PACKAGES[@]}") ;;
    postgres) wanted+=("${POSTGRES_PACKAGES[@]}") ;;
    cluster) wanted+=("${CLUSTER_PACKAGES[@]}") ;;
    *) echo "install-deps: unknown group '$group' (known: base, browser, postgres, cluster)" >&2; exit 2 ;;
  esac
done

missing=()
for pkg in "${wanted[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$pkg")
  fi
done

if ! command -v swift >/dev/null 2>&1; then
  echo "install-deps: warning: no 'swift' on PATH; install the Swift 6 toolchain (swift.org) first." >&2
fi

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#wanted[@]} packages present (${wanted[*]})"
  exit 0
fi

cmd="apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends ${missing[*]}"
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    echo "install-deps: installing ${missing[*]} (via sudo)"
    sudo sh -c "$cmd"
    exit 0
  fi
  echo "install-deps: missing Debian packages: ${missing[*]}" >&2
  echo "Run as root:" >&2
  echo "  $cmd" >&2
  exit 1
fi

echo "install-deps: installing ${missing[*]}"
sh -c "$cmd"
