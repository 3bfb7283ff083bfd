/**
 * Re-embeds stored memories and documents with the configured embedding model, after a change of
 * model (memory-api refuses to start until this has run). Resumable: each batch is committed, and
 * a rerun picks up the rows still made by another model. Run it with the new EMBEDDER /
 * EMBEDDER_URL settings and the service's DATABASE_URL; replicas may keep running on the old model
 * meanwhile, though their recall mixes models until they restart.
 */
import { ConfigError, createLogger, EXIT_CONFIG } from '@trove/service-kit';
import { readConfig } from './config.ts';
import { openMemoryDatabase } from './db.ts';
import { openEmbedder } from './embedder.ts';
import { CatalogIndex } from './memories/memory-index.ts';
import { MemoryStore } from './memories/memory-store.ts';
import { reembedAll } from './memories/model-identity.ts';
import { VectorCatalog } from './memories/vector-catalog.ts';
import { SERVICE } from './meta.ts';

try {
  const config = readConfig();
  const logger = createLogger({ service: SERVICE, level: config.LOG_LEVEL, format: config.LOG_FORMAT });
  const db = await openMemoryDatabase(config, 'verify', logger);
  const embedder = await openEmbedder(config);
  try {
    const thresholds = { duplicate: 1, link: 1, contradiction: 1 };
    const store = new MemoryStore(db, embedder, thresholds, new CatalogIndex(new VectorCatalog(embedder.dimensions)));
    const started = performance.now();
    let last = 0;
    const done = await reembedAll(store, (p) => {
      if (performance.now() - last < 2000) return;
      last = performance.now();
      console.log(`${SERVICE}: re-embedded ${p.memories} memories and ${p.documents} documents so far`);
    });
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.log(
      `${SERVICE}: re-embedded ${done.memories} memories and ${done.documents} documents with ${embedder.model} in ${seconds} s`,
    );
  } finally {
    await embedder.close?.();
    await db.close();
  }
  process.exit(0);
} catch (err) {
  process.stderr.write(
    `${SERVICE}: ${err instanceof ConfigError ? '' : 're-embedding failed: '}${(err as Error).message}\n`,
  );
  process.exit(err instanceof ConfigError ? EXIT_CONFIG : 1);
}
