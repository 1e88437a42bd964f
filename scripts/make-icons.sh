#!/usr/bin/env bash
# Renders the web app's icons from the one drawing, Resources/brand/icon.svg, with libvips (issue
# 53). Run it again after changing the drawing and commit the PNGs: the server only serves them.
#   any:      icon-192.png, icon-512.png (the drawing as it is: a square, edge to edge)
#   maskable: maskable-192.png, maskable-512.png (the drawing shrunk into the middle 80 %, on the
#             same crimson, so a launcher's circle or squircle never cuts the hanger)
#   apple-touch-icon.png (180 px, opaque: iOS rounds the corners itself)
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
source="$repo/Resources/brand/icon.svg"
out="$repo/Public/static/icons"
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for size in 192 512; do
  vips thumbnail "$source" "$out/icon-$size.png[strip]" "$size" --height "$size"
  inner=$(( size * 8 / 10 ))
  offset=$(( (size - inner) / 2 ))
  vips thumbnail "$source" "$work/inner-$size.v" "$inner" --height "$inner"
  vips embed "$work/inner-$size.v" "$out/maskable-$size.png[strip]" "$offset" "$offset" "$size" "$size" \
    --extend background --background "158 27 50 255"
done
vips thumbnail "$source" "$work/apple.v" 180 --height 180
vips flatten "$work/apple.v" "$out/apple-touch-icon.png[strip]" --background "158 27 50"
for file in "$out"/*.png; do
  printf '%s %s\n' "$(basename "$file")" "$(vipsheader -f width "$file")x$(vipsheader -f height "$file")"
done
