import type { MemoryConfig } from './config.ts';
import type { MemoryStore } from './memories/memory-store.ts';

/** What every route plugin gets. */
export interface MemoryContext {
  store: MemoryStore;
  config: MemoryConfig;
}
