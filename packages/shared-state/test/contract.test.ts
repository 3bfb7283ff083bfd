import { missing } from '../../../tests/support/requirements.ts';
import { createSharedState, MemoryStore } from '../src/index.ts';
import { describeSharedStateContract } from './contract.ts';
import { deleteKeysWithPrefix, redisUrl } from './support.ts';

// For memory, "the same backend" is one MemoryStore passed to every handle:
// it plays the part of the Redis server, so two handles behave like two
// replicas and the pub/sub, shared-limit and prefix tests exercise exactly
// the code paths they do on Redis. (Opening one handle twice would not: the
// second "replica" would be the same object.) Services leave memoryStore
// out and get a private store per handle.
const memoryStore = new MemoryStore();
describeSharedStateContract('memory', (options) => createSharedState({ ...options, memoryStore }));

describeSharedStateContract('redis', (options) => createSharedState({ ...options, redisUrl }), {
  skip: missing('redis'),
  cleanup: async (prefix) => {
    if (redisUrl) await deleteKeysWithPrefix(redisUrl, prefix);
  },
});
