import { runCycle } from '../../lifecycle/cycle.ts';
import { promote } from '../../lifecycle/pair.ts';
import { cycleBody, deprecatedQuery, promoteBody } from '../../lifecycle/requests.ts';
import { DEFAULT_MAX_ACCESS_COUNT, deprecatedListing, lifecycleStatus } from '../../lifecycle/status.ts';
import { namespace, uuid } from '../../schemas/parse.ts';
import { namespaceQuery } from '../../schemas/requests.ts';
import { type RoutePlugin, read, write } from '../define.ts';

export const lifecycleRoutes: RoutePlugin = async (app, { store, config }) => {
  app.post(
    '/lifecycle/cycle',
    {
      schema: { body: cycleBody },
      config: write(
        'deprecates unused, rarely read, unpinned memories; with prune_expired deletes expired deprecated ones',
        '{dry_run?, namespace?, older_than_days?, max_access_count?, prune_expired?, ttl_days?}',
        'LifecycleCycleResult',
      ),
    },
    async (request) => {
      const body = request.body;
      return runCycle(store, {
        dryRun: body.dry_run ?? false,
        namespace: namespace(body.namespace),
        olderThanDays: body.older_than_days ?? config.LIFECYCLE_COLD_DAYS,
        maxAccessCount: body.max_access_count ?? DEFAULT_MAX_ACCESS_COUNT,
        pruneExpired: body.prune_expired ?? false,
        ttlDays: body.ttl_days ?? config.LIFECYCLE_DEPRECATED_TTL_DAYS,
        maxPerCall: config.MAINTENANCE_MAX_PER_CALL,
      });
    },
  );

  app.post(
    '/lifecycle/promote',
    {
      schema: { body: promoteBody },
      config: write('restores a deprecated memory to active; 409 when it is active already', '{id}', 'Memory'),
    },
    async (request) => promote(store, uuid(request.body.id)),
  );

  app.get(
    '/lifecycle/status',
    {
      schema: { querystring: namespaceQuery },
      config: read(
        'active, deprecated, pinned and expired counts, and the lifecycle configuration',
        'query namespace',
        'LifecycleStatus',
      ),
    },
    async (request) => lifecycleStatus(store, config, namespace(request.query.namespace)),
  );

  app.get(
    '/lifecycle/deprecated',
    {
      schema: { querystring: deprecatedQuery },
      config: read(
        'deprecated memories with deprecated_at, expires_at and days_left, soonest to expire first',
        'query namespace, limit, offset',
        '{namespace, ttl_days, total, memories}',
      ),
    },
    async (request) =>
      deprecatedListing(store, {
        namespace: namespace(request.query.namespace),
        limit: request.query.limit ?? 100,
        offset: request.query.offset ?? 0,
        ttlDays: config.LIFECYCLE_DEPRECATED_TTL_DAYS,
      }),
  );
};
