import type { FastifyPluginAsync } from 'fastify';
import type { MemoryContext } from '../../context.ts';

// Filled in by issue 4.
export const graphRoutes: FastifyPluginAsync<MemoryContext> = async () => {};
