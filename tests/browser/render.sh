#!/usr/bin/env bash
# Renders one diagram per variant to PNG in headless Chromium, through the
# real service: tests/browser/render.sh <arbiter binary> <output dir>
# (tests/browser.rs runs it; `docs/img` holds the README's copies).
set -euo pipefail
bin=${1:?arbiter binary}
out=${2:?output directory}
chromium=${CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}
[ -n "$chromium" ] || { echo "render.sh: chromium not found" >&2; exit 3; }
mkdir -p "$out"
port=$(( 20000 + RANDOM % 20000 ))
"$bin" serve --bind "127.0.0.1:$port" --workers 1 >/dev/null 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
for _ in $(seq 100); do
  curl -fs "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && break
  sleep 0.1
done
base="http://127.0.0.1:$port/v1/variants"
# name|size|url
while IFS='|' read -r name size url; do
  curl -fs -o /dev/null "$base/$url" || { echo "render.sh: $url is not a picture" >&2; exit 1; }
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
