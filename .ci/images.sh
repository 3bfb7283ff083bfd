#!/usr/bin/env bash
# CI, container half: a Docker engine on this machine, the base image made offline, every target of
# the Dockerfile built, each image's size printed, and each image started and checked.
# Run from the repository root: bash .ci/images.sh. Leaves the engine running for later steps
# (.ci/run stops it at the end); TROVE_IMAGE_TAG (default ci) tags the images trove-<target>:<tag>.
set -euo pipefail
cd "$(dirname "$0")/.."
step() { printf '\n== %s\n' "$*"; }
TAG="${TROVE_IMAGE_TAG:-ci}"
BASE_IMAGE=node:20-bookworm-slim
TARGETS=$(sed -n 's/^FROM .* AS \([a-z-]*\)$/\1/p' Dockerfile | grep -vx 'base\|manifests\|build\|deps\|runtime\|glove')

step "containers: Docker engine (Debian's docker.io, no iptables) and debootstrap"
missing=()
command -v dockerd >/dev/null 2>&1 || missing+=(docker.io)
command -v debootstrap >/dev/null 2>&1 || missing+=(debootstrap)
if [ ${#missing[@]} -gt 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
# overlay2 where the kernel allows it (every layer of a vfs build is a full copy: minutes more).
start_engine() {
  mkdir -p /var/log/trove-ci
  nohup dockerd --iptables=false "$@" >/var/log/trove-ci/dockerd.log 2>&1 &
  echo $! >/var/run/trove-ci-dockerd.pid
  for _ in $(seq 1 30); do docker info >/dev/null 2>&1 && return 0; sleep 1; done
  kill "$(cat /var/run/trove-ci-dockerd.pid)" 2>/dev/null || true
  sleep 2
  return 1
}
if ! docker info >/dev/null 2>&1; then
  start_engine --storage-driver=overlay2 || start_engine --storage-driver=vfs ||
    { tail -20 /var/log/trove-ci/dockerd.log; exit 1; }
fi
docker info --format 'engine {{.ServerVersion}}, storage driver {{.Driver}}'

step "containers: base image $BASE_IMAGE made offline (debootstrap minbase bookworm + this machine's Node)"
if docker image inspect "$BASE_IMAGE" >/dev/null 2>&1; then
  echo "$BASE_IMAGE already present"
else
  start=$SECONDS
  rootfs=$(mktemp -d /tmp/trove-rootfs.XXXXXX)
  debootstrap --variant=minbase bookworm "$rootfs" http://deb.debian.org/debian >/tmp/trove-debootstrap.log 2>&1 \
    || { tail -20 /tmp/trove-debootstrap.log; exit 1; }
  # As the official image lays it out: node and npm under /usr/local, user `node` (uid 1000).
  node_bin=$(readlink -f "$(command -v node)")
  npm_dir=$(dirname "$(dirname "$(readlink -f "$(command -v npm)")")")
  install -m 0755 "$node_bin" "$rootfs/usr/local/bin/node"
  mkdir -p "$rootfs/usr/local/lib/node_modules"
  cp -a "$npm_dir" "$rootfs/usr/local/lib/node_modules/npm"
  ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$rootfs/usr/local/bin/npm"
  ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$rootfs/usr/local/bin/npx"
  # This machine's trust store (its egress proxy signs TLS) and Node's headers, so that npm and
  # node-gyp work offline inside builds; elsewhere the official image needs neither.
  mkdir -p "$rootfs/usr/local/include" "$rootfs/etc/ssl/certs"
  cp -a /usr/include/node "$rootfs/usr/local/include/node"
  cp /etc/ssl/certs/ca-certificates.crt "$rootfs/etc/ssl/certs/trove-ci-ca.crt"
  chroot "$rootfs" groupadd --gid 1000 node
  chroot "$rootfs" useradd --uid 1000 --gid node --shell /bin/bash --create-home node
  rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/*
  tar -C "$rootfs" -c . | docker import \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change 'ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/trove-ci-ca.crt' \
    --change 'ENV npm_config_nodedir=/usr/local' \
    --change 'CMD ["node"]' - "$BASE_IMAGE" >/dev/null
  rm -rf "$rootfs"
  echo "made $BASE_IMAGE in $((SECONDS - start)) s"
fi

step "containers: build every Dockerfile target ($(echo $TARGETS | tr '\n' ' '))"
revision=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
for target in $TARGETS; do
  start=$SECONDS
  DOCKER_BUILDKIT=0 docker build -q --network host --target "$target" --build-arg "REVISION=$revision" \
    -t "trove-$target:$TAG" . >/dev/null
  echo "built trove-$target:$TAG in $((SECONDS - start)) s"
done

step "containers: image sizes"
for target in $TARGETS; do
  docker image inspect "trove-$target:$TAG" --format "{{index .Config.Labels \"org.opencontainers.image.title\"}} {{.Size}}" |
    awk '{ printf "%-22s %6.0f MB\n", $1, $2 / 1e6 }'
done

step "containers: each image starts non-root on a read-only root filesystem, passes its HEALTHCHECK and stops on SIGTERM"
bash .ci/image-smoke.sh "$TAG" $TARGETS

step "containers: the whole-stack tests once more, against the images"
export TEST_DATABASE_URL="${TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}"
export REDIS_URL="${REDIS_URL:-redis://127.0.0.1:6379}"
TROVE_REQUIRE_ALL=1 TROVE_STACK_IMAGES="$TAG" npx vitest run tests/stack
