# One image per Trove process, from one file: `docker build --target memory-api .` (targets:
# memory-api, vectorize-api, errors-api, embedder, vectorizer-worker, migrate; `dev` for Tilt).
# Builds offline from a locally made base tagged node:24-bookworm-slim (see .ci/images.sh) or from
# the official image anywhere else; npm and apt need the network during the build (`--network
# host` where the default bridge has no route out).
#
# Each image holds only what its process runs: its server bundled by esbuild into plain JavaScript
# (scripts/build/bundle.ts), the few npm packages left out of the bundle (native modules,
# WebAssembly, files read from their own folder), a stripped Node 24, glibc and libstdc++. No shell,
# no package manager, no TypeScript: `kubectl debug` with an image of your choice to look inside.
ARG NODE_IMAGE=node:24-bookworm-slim

FROM ${NODE_IMAGE} AS base
WORKDIR /app

# Only the package manifests, so the dependency layer stays cached while sources change.
FROM base AS manifests
COPY . /src
RUN cd /src && find . -type f ! -name package.json ! -name package-lock.json ! -name .npmrc -delete \
 && find . -depth -type d -empty -delete

# Production dependencies of every workspace (esbuild included, at the root); hnswlib-node compiles
# here. onnxruntime-node's install script would fetch CUDA libraries: its CPU build ships in the package.
FROM base AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ binutils tini libvulkan1 \
 && rm -rf /var/lib/apt/lists/*
COPY --from=manifests /src/ /app/
ENV ONNXRUNTIME_NODE_INSTALL=skip
RUN npm install --omit=dev --no-audit --no-fund --loglevel=error \
 && rm -rf /root/.npm /root/.cache /tmp/*
COPY . /app/
# /out/<app> is laid out as /app in that app's image.
RUN node --import tsx scripts/build/bundle.ts /out

# The compact GloVe vectors, built once here instead of at first start.
FROM build AS glove
RUN mkdir -p /cache && node --import tsx -e "const { GloveEmbedder } = await import('/app/packages/embeddings/src/glove/glove-embedder.ts'); await GloveEmbedder.open({ cacheDir: '/cache' });"

# The runtime root file system: glibc, libgcc, libstdc++ (all that Node and the native modules link
# against), tini, Node without its symbol tables (127 -> 109 MB; native modules link through its
# dynamic symbols, which stay), users root and node (1000), and the writable places /tmp and /data.
# The embedder adds the Vulkan loader from /vulkan.
FROM build AS os
RUN set -eu; files() { dpkg -L "$@" | grep -E '^/(usr/)?lib(64)?/|^/etc/ld' | grep -v '/gconv/' | sed 's|^/||'; } \
 && mkdir -p /rootfs/usr/local/bin /rootfs/usr/bin /rootfs/etc /vulkan \
 && for f in $(files libc6 libgcc-s1 libstdc++6); do if [ -f "/$f" ] || [ -L "/$f" ]; then echo "$f"; fi; done \
    | tar -C / -cf - --no-recursion -T - | tar -C /rootfs -xf - \
 && for f in $(files libvulkan1); do if [ -f "/$f" ] || [ -L "/$f" ]; then echo "$f"; fi; done \
    | tar -C / -cf - --no-recursion -T - | tar -C /vulkan -xf - \
 && cp /usr/bin/tini-static /rootfs/usr/bin/tini \
 && strip --strip-all -o /rootfs/usr/local/bin/node "$(command -v node)" \
 && cp /etc/ld.so.cache /rootfs/etc/ \
 && printf 'root:x:0:0:root:/root:/usr/sbin/nologin\nnode:x:1000:1000:node:/home/node:/usr/sbin/nologin\n' >/rootfs/etc/passwd \
 && printf 'root:x:0:\nnode:x:1000:\n' >/rootfs/etc/group \
 && printf 'hosts: files dns\n' >/rootfs/etc/nsswitch.conf \
 && install -d -m 1777 /rootfs/tmp && install -d -o 1000 -g 1000 /rootfs/data /rootfs/home/node

FROM scratch AS runtime
COPY --from=os /rootfs/ /
ENV PATH=/usr/local/bin:/usr/bin NODE_ENV=production HOST=0.0.0.0 LOG_FORMAT=json DATA_DIR=/data TMPDIR=/tmp
WORKDIR /app
# Numeric, so that Kubernetes' runAsNonRoot can check it.
USER 1000:1000
ENTRYPOINT ["/usr/bin/tini", "--"]
HEALTHCHECK --interval=15s --timeout=3s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||80)+'/livez').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
ARG VERSION=0.1.0
ARG REVISION=unknown
LABEL org.opencontainers.image.source="https://github.com/trove/trove" \
      org.opencontainers.image.vendor="Trove" \
      org.opencontainers.image.licenses="UNLICENSED" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${REVISION}"

FROM runtime AS memory-api
COPY --from=glove /cache/ /app/cache/glove/
COPY --from=build /out/memory-api/ /app/
ENV PORT=8767 EMBEDDINGS_CACHE_DIR=/app/cache/glove
EXPOSE 8767
LABEL org.opencontainers.image.title="trove-memory-api" \
      org.opencontainers.image.description="Trove memory-api: memories, recall and the MCP bridge over HTTP"
CMD ["node", "apps/memory-api/dist/server.mjs"]

FROM runtime AS vectorize-api
COPY --from=build /out/vectorize-api/ /app/
ENV PORT=8768
EXPOSE 8768
LABEL org.opencontainers.image.title="trove-vectorize-api" \
      org.opencontainers.image.description="Trove vectorize-api: raster images traced to SVG, PDF and EPS"
CMD ["node", "apps/vectorize-api/dist/server.mjs"]

FROM runtime AS errors-api
COPY --from=build /out/errors-api/ /app/
ENV PORT=8769
EXPOSE 8769
LABEL org.opencontainers.image.title="trove-errors-api" \
      org.opencontainers.image.description="Trove errors-api: Sentry-compatible error ingest, issues and alerts"
CMD ["node", "apps/errors-api/dist/server.mjs"]

# gRPC text embedding; the side port (PORT) answers /livez, /readyz and /metrics.
# The Vulkan loader is for onnxruntime-node's WebGPU provider (Dawn over Vulkan) on GPU nodes; the
# NVIDIA container runtime mounts the driver when the pod asks for a GPU and graphics capability.
FROM runtime AS embedder
COPY --from=os /vulkan/ /
COPY --from=glove /cache/ /app/cache/glove/
COPY --from=build /out/embedder/ /app/
ENV PORT=8770 GRPC_PORT=50051 EMBEDDINGS_CACHE_DIR=/app/cache/glove \
    NVIDIA_DRIVER_CAPABILITIES=compute,utility,graphics
EXPOSE 8770 50051
LABEL org.opencontainers.image.title="trove-embedder" \
      org.opencontainers.image.description="Trove embedder: text embedding inference over gRPC"
CMD ["node", "apps/embedder/dist/server.mjs"]

# gRPC tracing worker pool; the side port (PORT) answers /livez, /readyz and /metrics.
FROM runtime AS vectorizer-worker
COPY --from=build /out/vectorizer-worker/ /app/
ENV PORT=8771 GRPC_PORT=50052
EXPOSE 8771 50052
LABEL org.opencontainers.image.title="trove-vectorizer-worker" \
      org.opencontainers.image.description="Trove vectorizer-worker: image tracing on a pool of threads, over gRPC"
CMD ["node", "apps/vectorizer-worker/dist/server.mjs"]

# Applies one app's migrations and exits: `docker run trove-migrate memory-api` (a Helm hook Job).
# memory-api-reembed re-embeds memories after a change of model, so it also carries the GloVe cache.
FROM runtime AS migrate
COPY --from=glove /cache/ /app/cache/glove/
COPY --from=build /out/errors-api/ /app/
COPY --from=build /out/memory-api/ /app/
COPY docker/migrate.mjs /app/docker/migrate.mjs
ENV EMBEDDINGS_CACHE_DIR=/app/cache/glove
HEALTHCHECK NONE
LABEL org.opencontainers.image.title="trove-migrate" \
      org.opencontainers.image.description="Trove migrations: applies pending migrations of memory-api or errors-api and exits"
ENTRYPOINT ["/usr/bin/tini", "--", "node", "/app/docker/migrate.mjs"]
CMD []

# Local development (Tilt): the sources and every production dependency, run through tsx so that
# synced changes restart the process. Never deployed.
FROM build AS dev
COPY --from=glove /cache/ /app/cache/glove/
ENV NODE_ENV=development HOST=0.0.0.0 LOG_FORMAT=json DATA_DIR=/data TMPDIR=/tmp \
    EMBEDDINGS_CACHE_DIR=/app/cache/glove
RUN mkdir -p /data && chown node:node /data
USER node
ENTRYPOINT ["/usr/bin/tini", "--"]
