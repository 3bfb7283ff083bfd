#!/usr/bin/env bash
# Start to ready of errors-api (Postgres and Redis, migrations applied by the migrate image first)
# and vectorize-api (tracing on a running vectorizer-worker), as in a cluster: from `docker start`
# until /readyz answers 200, polled every 50 ms. (Tracing in process, vectorize-api is ready only
# once its threads are warm: seconds more, which a cluster's workers pay once, not per API start.)
# Five starts each, one image at a time; the median is checked against the limit (one start on a
# busy machine can take twice as long).
# Usage: .ci/image-start-time.sh TAG LIMIT_SECONDS
set -euo pipefail
tag=$1
limit=$2
db="trove_ci_start_$$"
psql -q -h 127.0.0.1 -U postgres -c "CREATE DATABASE $db" >/dev/null
docker run --rm --network host --read-only --tmpfs /tmp \
  -e "DATABASE_URL=postgres://postgres@127.0.0.1:5432/$db" "trove-migrate:$tag" errors-api >/dev/null
free_port() { node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"; }

# Prints seconds from `docker start` to the first 200 from /readyz.
time_start() {
  target=$1
  shift
  port=$(free_port)
  name="trove-start-$target-$$"
  docker create --name "$name" --network host --read-only --tmpfs /tmp --tmpfs /data:uid=1000 \
    -e "PORT=$port" -e HOST=127.0.0.1 "$@" "trove-$target:$tag" >/dev/null
  start=$(date +%s%N)
  docker start "$name" >/dev/null
  until curl -sf -o /dev/null "http://127.0.0.1:$port/readyz"; do
    if [ $(($(date +%s%N) - start)) -gt 60000000000 ]; then docker logs "$name" 2>&1 | tail -20 >&2; docker rm -f "$name" >/dev/null; return 1; fi
    sleep 0.05
  done
  end=$(date +%s%N)
  docker rm -f "$name" >/dev/null
  awk -v ns=$((end - start)) 'BEGIN { printf "%.2f\n", ns / 1e9 }'
}

worker_port=$(free_port)
worker_grpc=$(free_port)
docker run -d --name "trove-start-worker-$$" --network host --read-only --tmpfs /tmp -e "PORT=$worker_port" \
  -e "GRPC_PORT=$worker_grpc" -e HOST=127.0.0.1 -e TRACE_THREADS=1 "trove-vectorizer-worker:$tag" >/dev/null
trap 'docker rm -f "trove-start-worker-$$" >/dev/null 2>&1; psql -q -h 127.0.0.1 -U postgres -c "DROP DATABASE IF EXISTS $db" >/dev/null' EXIT
for _ in $(seq 1 600); do curl -sf -o /dev/null "http://127.0.0.1:$worker_port/readyz" && break; sleep 0.2; done

status=0
for target in errors-api vectorize-api; do
  if [ "$target" = errors-api ]; then
    args=(-e "DATABASE_URL=postgres://postgres@127.0.0.1:5432/$db" -e "REDIS_URL=redis://127.0.0.1:6379")
  else
    args=(-e "VECTORIZER_WORKER_URL=127.0.0.1:$worker_grpc")
  fi
  times=()
  for _ in 1 2 3 4 5; do times+=("$(time_start "$target" "${args[@]}")"); done
  median=$(printf '%s\n' "${times[@]}" | sort -n | sed -n 3p)
  verdict=ok
  if awk -v m="$median" -v l="$limit" 'BEGIN { exit !(m > l) }'; then verdict="OVER THE LIMIT"; status=1; fi
  echo "trove-$target: start to ready ${times[*]} s, median $median s (limit $limit s) $verdict"
done
exit $status
