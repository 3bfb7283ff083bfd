#!/usr/bin/env bash
# CI: compose.yaml (the cluster's shape without Kubernetes) started from the images .ci/images.sh
# built, the whole-stack tests run against its services, then everything removed. Postgres and Redis
# are stand-ins for the official images built from Debian's packages (.ci/standins), since no image
# registry is reachable here. Usage: bash .ci/compose.sh [prepare] (TROVE_IMAGE_TAG as for
# images.sh); `prepare` only installs docker-compose and builds the stand-ins.
set -euo pipefail
cd "$(dirname "$0")/.."
TAG="${TROVE_IMAGE_TAG:-ci}"
project=trove-ci
command -v docker-compose >/dev/null 2>&1 || {
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends docker-compose >/dev/null
}
for pair in postgres=postgres:15-bookworm redis=redis:7-bookworm; do
  target=${pair%%=*}
  image=${pair#*=}
  if ! docker image inspect "$image" >/dev/null 2>&1; then
    start=$SECONDS
    DOCKER_BUILDKIT=0 docker build -q --network host --target "$target" -t "$image" .ci/standins >/dev/null
    echo "built the stand-in $image in $((SECONDS - start)) s"
  fi
done
[ "${1:-}" != prepare ] || exit 0
compose() {
  TROVE_TAG=$TAG TROVE_MEMORY_API_PORT=18767 TROVE_MEMORY_API_2_PORT=18777 TROVE_VECTORIZE_API_PORT=18768 \
    TROVE_ERRORS_API_PORT=18769 TROVE_EMBEDDER_PORT=18770 TROVE_WORKER_1_PORT=18771 TROVE_WORKER_2_PORT=18772 \
    docker-compose --ansi never -p "$project" -f compose.yaml "$@"
}
trap 'compose down -v --remove-orphans >/dev/null 2>&1 || true' EXIT
start=$SECONDS
compose up -d
compose ps
echo "compose.yaml up (migrations done, every dependency healthy) in $((SECONDS - start)) s"
TROVE_REQUIRE_ALL=1 TROVE_STACK_COMPOSE="$project" npx vitest run tests/stack/stack.test.ts || {
  compose logs --tail 30
  exit 1
}
# Memory of each service after the stack tests (the chart's resources are set from these).
docker stats --no-stream --format '{{.Name}} {{.MemUsage}}' $(compose ps -q)

# The chart's `helm test` script against the same services (here through their published ports).
TROVE_READYZ='{"memory-api":"http://127.0.0.1:18767","vectorize-api":"http://127.0.0.1:18768","errors-api":"http://127.0.0.1:18769","embedder":"http://127.0.0.1:18770","vectorizer-worker":"http://127.0.0.1:18771"}' \
  MEMORY_API_URL=http://127.0.0.1:18767 VECTORIZE_API_URL=http://127.0.0.1:18768 ERRORS_API_URL=http://127.0.0.1:18769 \
  node charts/trove/files/helm-test.mjs
