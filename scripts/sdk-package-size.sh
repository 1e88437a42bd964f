#!/usr/bin/env bash
# What an app's package resolves when it adds AtelierKit by path (issue 52: at most 5 packages).
# Makes a scratch package that depends on Clients/AtelierKit, resolves it, prints the packages
# in its Package.resolved, and fails when there are more than MAX_PACKAGES (5).
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
max=${MAX_PACKAGES:-5}
app=$(mktemp -d)
trap 'rm -rf "$app"' EXIT
mkdir -p "$app/Sources/App"
cat >"$app/Package.swift" <<MANIFEST
// swift-tools-version:6.0
import PackageDescription
let package = Package(
    name: "App",
    platforms: [.macOS(.v14), .iOS(.v17)],
    dependencies: [.package(path: "$repo/Clients/AtelierKit")],
    targets: [.executableTarget(name: "App", dependencies: [.product(name: "AtelierKit", package: "AtelierKit")])]
)
MANIFEST
echo 'import AtelierKit' >"$app/Sources/App/main.swift"
(cd "$app" && swift package resolve >"$app/resolve.log" 2>&1) || { cat "$app/resolve.log" >&2; exit 1; }
packages=$(python3 -c 'import json,sys; print("\n".join(sorted(p["identity"] for p in json.load(open(sys.argv[1]))["pins"])))' "$app/Package.resolved")
count=$(printf '%s\n' "$packages" | grep -c . || true)
echo "An app adding AtelierKit resolves $count packages (at most $max):"
printf '  %s\n' $packages
[ "$count" -le "$max" ]
