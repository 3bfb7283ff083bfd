import type { Embedder, VectorStore } from '@trove/embeddings';
import { createServer, type Logger, serviceKit } from '@trove/service-kit';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { registerAuth } from './auth/auth.ts';
import type { MemoryConfig } from './config.ts';
import type { MemoryContext } from './context.ts';
import { type MemoryDatabase, openMemoryDatabase } from './db.ts';
import { applyDocumentChanges, reloadDocumentIndex } from './documents/document-index.ts';
import { openEmbedder } from './embedder.ts';
import { registerFeedMetrics } from './feed-metrics.ts';
import { collectTools } from './mcp/tools.ts';
import { MemoryStore } from './memories/memory-store.ts';
import { checkStoredModel } from './memories/model-identity.ts';
import { openIndex, sharedIndexPosition } from './memories/open-index.ts';
import { VectorFeed } from './memories/vector-feed.ts';
import { SERVICE } from './meta.ts';
import { aiRoutes } from './routes/ai/index.ts';
import { documentRoutes } from './routes/documents/index.ts';
import { domainErrorToHttp } from './routes/errors.ts';
import { graphRoutes } from './routes/graph/index.ts';
import { healthRoutes } from './routes/health/index.ts';
import { indexHealthRoutes } from './routes/index-health/index.ts';
import { collectRoutes, introspectionRoutes } from './routes/introspection/index.ts';
import { lifecycleRoutes } from './routes/lifecycle/index.ts';
import { maintenanceRoutes } from './routes/maintenance/index.ts';
import { mcpRoutes } from './routes/mcp/index.ts';
import { memoryRoutes } from './routes/memory/index.ts';
import { namespaceRoutes } from './routes/namespaces/index.ts';
import { registerOpenApi } from './routes/openapi.ts';
import { provenanceRoutes } from './routes/provenance/index.ts';
import { recallRoutes } from './routes/recall/index.ts';
import { rememberRoutes } from './routes/remember/index.ts';
import { roomDocumentRoutes } from './routes/rooms/documents.ts';
import { roomRoutes } from './routes/rooms/index.ts';
import { searchRoutes } from './routes/search/index.ts';
import { statsRoutes } from './routes/stats/index.ts';
import { tagRoutes } from './routes/tags/index.ts';
import { transferRoutes } from './routes/transfer/index.ts';
import { useStrictValidation } from './schemas/validation.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The store behind the routes (tests and benchmarks reach the database and index through it). */
    memoryStore: MemoryStore;
  }
}

export interface MemoryAppOptions {
  config: MemoryConfig;
  db: MemoryDatabase;
  /** Defaults to the configured one (EMBEDDER). */
  embedder?: Embedder;
  /** A vector store shared with other replicas, instead of the configured index (tests). */
  sharedVectors?: VectorStore;
}

/**
 * memory-api as a Fastify plugin: the service kit, authentication, then the routes of the spec.
 * The vector index is built from stored embeddings before the first request is served.
 */
export const memoryApp = fp<MemoryAppOptions>(
  async (app, { config, db, embedder, sharedVectors }) => {
    // Only the database: memory-api shares nothing through Redis, so it neither opens nor waits for it.
    await app.register(serviceKit, {
      service: SERVICE,
      checks: { database: () => db.ping() },
      // A lost or refused database connection is answered 503 with Retry-After, naming the database.
      classifyFailure: db.unavailable,
      // An embedded database that stopped answering fails liveness, so the orchestrator restarts it.
      liveness: { database: () => db.alive() },
      // The domain's refusals (DomainError) answered with their status, by the kit's own handler.
      mapError: domainErrorToHttp,
    });
    registerAuth(app, { full: config.AUTH_TOKENS, readOnly: config.READ_ONLY_TOKENS });
    useStrictValidation(app);
    await registerOpenApi(app);
    const routes = collectRoutes(app);
    const tools = collectTools(app);
    const resolved = embedder ?? (await openEmbedder(config));
    if (resolved.check) app.readiness.add('embedder', () => resolved.check?.() as Promise<void>);
    // Only an embedder this app opened is closed with it; one handed in belongs to the caller.
    if (!embedder && resolved.close) app.addHook('onClose', () => resolved.close?.() as Promise<void>);
    const index = openIndex(config, resolved, (ids) => store.indexedItems(ids), sharedVectors);
    // A store handed in belongs to the caller.
    if (!sharedVectors) app.addHook('onClose', () => index.close());
    if (index.shared) app.readiness.add('vector index', () => index.ping());
    const store: MemoryStore = new MemoryStore(
      db,
      resolved,
      {
        duplicate: config.DUPLICATE_THRESHOLD,
        link: config.LINK_THRESHOLD,
        contradiction: config.CONTRADICTION_THRESHOLD,
      },
      index,
    );
    store.indexWriteFailed = (err) =>
      app.log.warn({ err }, 'a committed write did not reach the vector index; the change feed applies it later');
    const feed = new VectorFeed(db, {
      pollMs: config.CHANGE_FEED_POLL_MS,
      retentionS: config.CHANGE_FEED_RETENTION_S,
      apply: async ({ memories, documents }) => {
        await store.applyChanges(memories);
        await applyDocumentChanges(store, documents);
      },
      rebuild: async () => {
        const built = await store.rebuildIndex();
        app.log.info({ ...built, index: index.description }, 'vector index built from stored embeddings');
        await reloadDocumentIndex(store);
      },
      ...(index.shared ? { saved: sharedIndexPosition(db, index.key) } : {}),
      onError: (err) => app.log.warn({ err }, 'reading the change feed of vector writes failed; retrying'),
    });
    await checkStoredModel(store);
    await feed.start();
    store.feed = feed;
    registerFeedMetrics(app.metricsRegistry, feed);
    app.addHook('onClose', () => feed.stop());
    app.decorate('memoryStore', store);
    const context: MemoryContext = { store, config };
    await app.register(introspectionRoutes, { ...context, routes });
    await app.register(healthRoutes, { db });
    for (const plugin of [
      rememberRoutes,
      memoryRoutes,
      recallRoutes,
      searchRoutes,
      tagRoutes,
      namespaceRoutes,
      statsRoutes,
      transferRoutes,
      indexHealthRoutes,
      roomRoutes,
      roomDocumentRoutes,
      documentRoutes,
      graphRoutes,
      provenanceRoutes,
      lifecycleRoutes,
      maintenanceRoutes,
      aiRoutes,
    ])
      await app.register(plugin, context);
    await app.register(mcpRoutes, { ...context, tools });
  },
  { name: SERVICE },
);

/** Opens the app's dependencies and returns a ready server; closing the server closes them. */
export async function buildMemoryApp(
  config: MemoryConfig,
  logger: Logger,
  embedder?: Embedder,
  sharedVectors?: VectorStore,
): Promise<FastifyInstance> {
  const db = await openMemoryDatabase(config, config.MIGRATE_ON_START, logger);
  const server = createServer({
    logger,
    bodyLimit: config.BODY_LIMIT_BYTES,
    closeWith: [db],
    connections: config,
    // Start-up rebuilds the vector index from stored embeddings: about 20 s at 100k memories.
    pluginTimeout: 0,
  });
  try {
    await server.register(memoryApp, {
      config,
      db,
      ...(embedder ? { embedder } : {}),
      ...(sharedVectors ? { sharedVectors } : {}),
    });
  } catch (err) {
    // A refused start (another embedding model, an unreachable dependency) lets go of the
    // database, so that the command that fixes it can open the same directory.
    await server.close().catch(() => {});
    await db.close().catch(() => {});
    throw err;
  }
  return server;
}
