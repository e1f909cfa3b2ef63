#!/usr/bin/env bash
# N arbiter replicas behind HAProxy on this machine, for trying the balancer
# configuration (deploy/haproxy.cfg) as an operator would:
#
#   cargo build --release && deploy/replicas.sh 3 [SERVE OPTIONS...]
#
# Options after the count go to each replica's `arbiter serve`; for fair
# shares behind the balancer, e.g.
# `deploy/replicas.sh 3 --rate-limit 50 --client-key-header X-Forwarded-For`.
# The balancer listens on ARBITER_LB_BIND (default 127.0.0.1:8080) with its
# statistics at http://127.0.0.1:8404/stats; replica i listens on 127.0.0.1
# port 8080+i. Ctrl-C stops everything. Kill or restart a replica by hand
# (`kill -TERM PID`, printed below) to watch the balancer route round it.
# Needs haproxy (Debian: apt-get install haproxy).
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-3}
shift $(($# > 0 ? 1 : 0))
[ "$n" -ge 1 ] && [ "$n" -le 8 ] || { echo "1 to 8 replicas" >&2; exit 2; }
bin=${ARBITER_BIN:-target/release/arbiter}
pids=()
trap 'kill -TERM "${pids[@]}" 2>/dev/null; wait' EXIT INT TERM
for i in $(seq "$n"); do
  "$bin" serve --bind "127.0.0.1:$((8080 + i))" "$@" &
  pids+=($!)
  export "ARBITER_REPLICA_$i=127.0.0.1:$((8080 + i))"
  echo "replica $i: 127.0.0.1:$((8080 + i)), pid $!"
done
export ARBITER_LB_BIND=${ARBITER_LB_BIND:-127.0.0.1:8080}
export ARBITER_LB_STATS=${ARBITER_LB_STATS:-127.0.0.1:8404}
echo "balancer: http://$ARBITER_LB_BIND (statistics: http://$ARBITER_LB_STATS/stats)"
haproxy -db -f deploy/haproxy.cfg &
pids+=($!)
wait
