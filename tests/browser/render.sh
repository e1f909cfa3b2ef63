#!/usr/bin/env bash
# Renders one diagram per variant to PNG in headless Chromium, through the
# real service: tests/browser/render.sh <service URL> <output dir>, e.g.
#   cargo run --release -- serve &  tests/browser/render.sh http://localhost:8080 docs/img
# (tests/browser.rs runs it against a server of its own; `docs/img` holds the
# README's copies).
set -euo pipefail
service=${1:?service URL, e.g. http://localhost:8080}
out=${2:?output directory}
chromium=${CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}
[ -n "$chromium" ] || { echo "render.sh: chromium not found" >&2; exit 3; }
mkdir -p "$out"
base="${service%/}/v1/variants"
# name|size|url
while IFS='|' read -r name size url; do
  code=$(curl -s -o /dev/null -w '%{http_code} %{content_type}' "$base/$url" || true)
  [ "$code" = "200 image/svg+xml" ] || { echo "render.sh: $base/$url answered '$code', not a picture" >&2; exit 1; }
  profile=$(mktemp -d)
  "$chromium" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --hide-scrollbars --user-data-dir="$profile" --window-size="$size" \
    --screenshot="$out/$name.png" "$base/$url" >/dev/null 2>&1
  rm -rf "$profile"
  [ -s "$out/$name.png" ] || { echo "render.sh: no $name.png" >&2; exit 1; }
  echo "$out/$name.png"
done <<'LIST'
xiangqi|544,600|xiangqi/diagram.svg?moves=h2e2,h9g7,h0g2,i9h9,i0h0,b7b3
taxi|540,620|taxi/diagram.svg?moves=e2e4,e7e5,g1f3,b8c6,f1b5,a7a6,b5c6
tamerlane|744,694|tamerlane/diagram.svg?moves=b3b4,j8j7,b2c4
LIST
# A game review's evaluation graph (a POST: kept as a file, then rendered).
review='{"moves": ["h2h6", "b7d7", "a0a2", "d7d6", "i3i4", "d6d3", "b2e2", "a9a8", "h6e6", "a8d8"]}'
code=$(curl -s -o "$out/review.svg" -w '%{http_code} %{content_type}' -X POST \
  -H 'content-type: application/json' -H 'accept: image/svg+xml' -d "$review" "$base/xiangqi/review" || true)
[ "$code" = "200 image/svg+xml" ] || { echo "render.sh: the review answered '$code', not a picture" >&2; exit 1; }
profile=$(mktemp -d)
"$chromium" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
  --disable-background-networking --disable-component-update --disable-sync \
  --hide-scrollbars --user-data-dir="$profile" --window-size=720,320 \
  --screenshot="$out/review.png" "file://$(cd "$out" && pwd)/review.svg" >/dev/null 2>&1
rm -rf "$profile" "$out/review.svg"
[ -s "$out/review.png" ] || { echo "render.sh: no review.png" >&2; exit 1; }
echo "$out/review.png"
