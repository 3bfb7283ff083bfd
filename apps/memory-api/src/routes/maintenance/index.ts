import { badRequest } from '@trove/service-kit';
import { AGING_ACTIONS, type AgingAction, runAging } from '../../lifecycle/aging.ts';
import { consolidate } from '../../lifecycle/consolidate.ts';
import { recomputeImportance } from '../../lifecycle/importance.ts';
import { listOrphans, pruneOrphans } from '../../lifecycle/orphans.ts';
import { mergePair } from '../../lifecycle/pair.ts';
import {
  agingBody,
  consolidateBody,
  consolidatePairBody,
  importanceBody,
  orphansBody,
  pruneBody,
} from '../../lifecycle/requests.ts';
import { DEFAULT_MAX_ACCESS_COUNT } from '../../lifecycle/status.ts';
import { toMemoryJson } from '../../memories/record.ts';
import { namespace, uuid } from '../../schemas/parse.ts';
import { type RoutePlugin, read, write } from '../define.ts';

export const maintenanceRoutes: RoutePlugin = async (app, { store, config }) => {
  const maxPerCall = config.MAINTENANCE_MAX_PER_CALL;

  app.post(
    '/importance',
    {
      schema: { body: importanceBody },
      config: write(
        'recomputes importance of live memories from access, recency, links, feedback and pinning',
        'ImportanceRequest',
        '{namespace, considered, updated, average_before, average_after}',
      ),
    },
    async (request) => recomputeImportance(store, namespace(request.body.namespace)),
  );

  app.post(
    '/prune',
    {
      schema: { body: pruneBody },
      config: write(
        'deprecates orphaned memories (no room, no edges, no document) unused for ttl_days',
        'PruneRequest',
        '{dry_run, namespace, ttl_days, action, pruned, ids, truncated}',
      ),
    },
    async (request) => {
      const body = request.body;
      return pruneOrphans(store, {
        dryRun: body.dry_run ?? false,
        namespace: namespace(body.namespace),
        ttlDays: body.ttl_days ?? config.LIFECYCLE_WARM_DAYS,
        maxPerCall,
      });
    },
  );

  app.post(
    '/consolidate',
    {
      schema: { body: consolidateBody },
      config: write(
        'merges near-duplicate live memories of a namespace (cosine >= threshold); one transaction per group',
        'ConsolidateRequest',
        '{dry_run, namespace, threshold, groups, merged, merges, truncated}',
      ),
    },
    async (request) => {
      const body = request.body;
      const threshold = body.threshold ?? config.CONSOLIDATE_THRESHOLD;
      // Below this nearly everything is "similar": a typo, not a wish to merge a namespace into one memory.
      if (threshold < 0.5) throw badRequest('threshold must be a number from 0.5 to 1.0');
      return consolidate(store, {
        dryRun: body.dry_run ?? false,
        namespace: namespace(body.namespace),
        threshold,
        maxPerCall,
      });
    },
  );

  app.post(
    '/consolidate/pair',
    {
      schema: { body: consolidatePairBody },
      config: write(
        'keeps id_keep; deprecates id_remove (or deletes it with hard_delete: true)',
        'ConsolidatePairRequest {id_keep, id_remove, hard_delete?}',
        '{kept, removed, hard_deleted, similarity}',
      ),
    },
    async ({ body }) =>
      mergePair(store, uuid(body.id_keep, 'id_keep'), uuid(body.id_remove, 'id_remove'), body.hard_delete ?? false),
  );

  app.post(
    '/aging',
    {
      schema: { body: agingBody },
      config: write(
        'deprioritizes (halves importance) or deprecates stale, rarely read, unpinned memories',
        'AgingRequest',
        '{action, dry_run, namespace, older_than_days, max_access_count, matched, changed, ids, truncated}',
      ),
    },
    async (request) => {
      const body = request.body;
      const action = (body.action ?? 'deprioritize') as AgingAction;
      if (!AGING_ACTIONS.includes(action))
        throw badRequest(`unknown action ${JSON.stringify(body.action)}; valid actions: ${AGING_ACTIONS.join(', ')}`);
      return runAging(store, {
        action,
        dryRun: body.dry_run ?? false,
        namespace: namespace(body.namespace),
        olderThanDays: body.older_than_days ?? config.LIFECYCLE_WARM_DAYS,
        maxAccessCount: body.max_access_count ?? DEFAULT_MAX_ACCESS_COUNT,
        maxPerCall,
      });
    },
  );

  app.post(
    '/orphans',
    {
      schema: { body: orphansBody },
      config: read(
        'lists live, unpinned memories with no room, no edges and no document; threshold: most importance',
        'OrphansRequest',
        '{namespace, threshold, total, orphans}',
      ),
    },
    async (request) => {
      const body = request.body;
      const ns = namespace(body.namespace);
      const threshold = body.threshold ?? 1;
      const found = await listOrphans(store, {
        namespace: ns,
        maxImportance: threshold,
        limit: body.limit ?? 50,
      });
      return { namespace: ns ?? null, threshold, total: found.total, orphans: found.rows.map(toMemoryJson) };
    },
  );
};
