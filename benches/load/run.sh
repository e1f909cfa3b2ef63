#!/usr/bin/env bash
# Load benchmark (not part of CI): starts a release server on loopback and
# runs wrk against the main endpoints, then repeats legal-moves and validate
# while a second wrk floods /analyze with searches.
#   bash benches/load/run.sh [seconds] [connections]
set -euo pipefail
cd "$(dirname "$0")/../.."
secs=${1:-10}
conns=${2:-32}
port=${PORT:-18181}
command -v wrk >/dev/null || { echo "install wrk first (apt-get install wrk)"; exit 1; }
cargo build --release --quiet
ARBITER_LOG=warn ./target/release/arbiter serve --bind "127.0.0.1:$port" &
pid=$!
trap 'kill $pid 2>/dev/null' EXIT
for _ in $(seq 50); do curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.1; done
base="http://127.0.0.1:$port"
run() { # name url [script]
  echo "== $1"
  if [ -n "${3:-}" ]; then
    wrk -t1 -c"$conns" -d"${secs}s" --latency -s "benches/load/$3" "$2"
  else
    wrk -t1 -c"$conns" -d"${secs}s" --latency "$2"
  fi | grep -E "Requests/sec|^ +50%|^ +99%|Non-2xx"
}
run "GET /healthz" "$base/healthz"
run "POST xiangqi/legal-moves" "$base/v1/variants/xiangqi/legal-moves" legal-moves.lua
run "POST xiangqi/validate" "$base/v1/variants/xiangqi/validate" validate.lua
run "POST xiangqi/adjudicate (perpetual check verdict)" "$base/v1/variants/xiangqi/adjudicate" adjudicate.lua
run "POST taxi/legal-moves" "$base/v1/variants/taxi/legal-moves" taxi.lua
run "POST tamerlane/legal-moves" "$base/v1/variants/tamerlane/legal-moves" tamerlane.lua
run "GET xiangqi/diagram.svg" "$base/v1/variants/xiangqi/diagram.svg?moves=h2e2,h9g7" diagram.lua
echo "== overload: 64 connections flood /analyze (200 ms searches) meanwhile"
wrk -t1 -c64 -d"$((2 * secs + 6))s" -s benches/load/analyze.lua "$base/v1/variants/xiangqi/analyze" > /tmp/arbiter-analyze-flood.txt &
flood=$!
sleep 2
run "POST xiangqi/legal-moves under the flood" "$base/v1/variants/xiangqi/legal-moves" legal-moves.lua
run "POST xiangqi/validate under the flood" "$base/v1/variants/xiangqi/validate" validate.lua
wait $flood
echo "== the flood itself (most answers are 503 engine_busy, at once)"
grep -E "Requests/sec|Non-2xx" /tmp/arbiter-analyze-flood.txt
curl -s "$base/metrics" | grep -E "^arbiter_searches_(completed|rejected)_total"
