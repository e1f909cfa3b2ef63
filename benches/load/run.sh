#!/usr/bin/env bash
# Load benchmark (not part of CI): starts a release server on loopback and
# compares the request rate of /healthz with that of the legal-moves endpoint.
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
echo "== GET /healthz"
wrk -t1 -c"$conns" -d"${secs}s" --latency "http://127.0.0.1:$port/healthz"
echo "== POST /v1/variants/xiangqi/legal-moves"
wrk -t1 -c"$conns" -d"${secs}s" --latency -s benches/load/legal-moves.lua "http://127.0.0.1:$port/v1/variants/xiangqi/legal-moves"
