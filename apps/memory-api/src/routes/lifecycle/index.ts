import { conflict, notFound } from '@trove/service-kit';
import type { FastifyPluginAsync } from 'fastify';
import type { MemoryContext } from '../../context.ts';
import { runCycle } from '../../lifecycle/cycle.ts';
import { cycleBody, deprecatedQuery, promoteBody } from '../../lifecycle/requests.ts';
import { MAX_ACCESS_BOUND, MAX_DAYS, wholeNumber } from '../../lifecycle/scope.ts';
import { DEFAULT_MAX_ACCESS_COUNT, deprecatedListing, lifecycleStatus } from '../../lifecycle/status.ts';
import { promoteMemory } from '../../lifecycle/transitions.ts';
import { toMemoryJson } from '../../memories/record.ts';
import { bool, limit, namespace, uuid } from '../../schemas/parse.ts';
import { namespaceQuery } from '../../schemas/requests.ts';

type Body = Record<string, unknown>;

export const lifecycleRoutes: FastifyPluginAsync<MemoryContext> = async (app, { store, config }) => {
  app.post<{ Body: Body | undefined }>(
    '/lifecycle/cycle',
    {
      schema: { body: cycleBody },
      config: {
        access: 'write',
        description:
          'deprecates unused, rarely read, unpinned memories; with prune_expired deletes expired deprecated ones',
        requestType: '{dry_run?, namespace?, older_than_days?, max_access_count?, prune_expired?, ttl_days?}',
        responseType: 'LifecycleCycleResult',
      },
    },
    async (request) => {
      const body = request.body ?? {};
      return runCycle(store, {
        dryRun: bool(body.dry_run, 'dry_run') ?? false,
        namespace: namespace(body.namespace),
        olderThanDays: wholeNumber(body.older_than_days, config.LIFECYCLE_COLD_DAYS, 0, MAX_DAYS, 'older_than_days'),
        maxAccessCount: wholeNumber(
          body.max_access_count,
          DEFAULT_MAX_ACCESS_COUNT,
          0,
          MAX_ACCESS_BOUND,
          'max_access_count',
        ),
        pruneExpired: bool(body.prune_expired, 'prune_expired') ?? false,
        ttlDays: wholeNumber(body.ttl_days, config.LIFECYCLE_DEPRECATED_TTL_DAYS, 0, MAX_DAYS, 'ttl_days'),
        maxPerCall: config.MAINTENANCE_MAX_PER_CALL,
      });
    },
  );

  app.post<{ Body: { id: string } }>(
    '/lifecycle/promote',
    {
      schema: { body: promoteBody },
      config: {
        access: 'write',
        description: 'restores a deprecated memory to active; 409 when it is active already',
        requestType: '{id}',
        responseType: 'Memory',
      },
    },
    async (request) => {
      const id = uuid(request.body.id);
      const before = await store.get(id);
      if (!before) throw notFound(`no memory with id ${id}`);
      if (before.status !== 'deprecated') throw conflict(`memory ${id} is already active`);
      const promoted = await promoteMemory(store, id, { actor: 'api', evidence: { reason: 'promote' } });
      // Another request restored it in between: the same outcome the caller asked for, but say so.
      if (!promoted) throw conflict(`memory ${id} is already active`);
      return toMemoryJson((await store.get(id)) ?? before);
    },
  );

  app.get<{ Querystring: { namespace?: string } }>(
    '/lifecycle/status',
    {
      schema: { querystring: namespaceQuery },
      config: {
        access: 'read',
        description: 'active, deprecated, pinned and expired counts, and the lifecycle configuration',
        requestType: 'query namespace',
        responseType: 'LifecycleStatus',
      },
    },
    async (request) => lifecycleStatus(store, config, namespace(request.query.namespace)),
  );

  app.get<{ Querystring: { namespace?: string; limit?: number; offset?: number } }>(
    '/lifecycle/deprecated',
    {
      schema: { querystring: deprecatedQuery },
      config: {
        access: 'read',
        description: 'deprecated memories with deprecated_at, expires_at and days_left, soonest to expire first',
        requestType: 'query namespace, limit, offset',
        responseType: '{namespace, ttl_days, total, memories}',
      },
    },
    async (request) =>
      deprecatedListing(store, {
        namespace: namespace(request.query.namespace),
        limit: limit(request.query.limit, 100, 1000),
        offset: request.query.offset ?? 0,
        ttlDays: config.LIFECYCLE_DEPRECATED_TTL_DAYS,
      }),
  );
};
