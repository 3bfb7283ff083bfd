import { dot } from '@trove/embeddings';
import { badRequest, conflict, notFound } from '@trove/service-kit';
import type { FastifyPluginAsync } from 'fastify';
import type { MemoryContext } from '../../context.ts';
import { AGING_ACTIONS, type AgingAction, runAging } from '../../lifecycle/aging.ts';
import { consolidate } from '../../lifecycle/consolidate.ts';
import { recomputeImportance } from '../../lifecycle/importance.ts';
import { mergeGroup } from '../../lifecycle/merge.ts';
import { listOrphans, pruneOrphans } from '../../lifecycle/orphans.ts';
import {
  agingBody,
  consolidateBody,
  consolidatePairBody,
  importanceBody,
  orphansBody,
  pruneBody,
} from '../../lifecycle/requests.ts';
import { MAX_ACCESS_BOUND, MAX_DAYS, wholeNumber } from '../../lifecycle/scope.ts';
import { DEFAULT_MAX_ACCESS_COUNT } from '../../lifecycle/status.ts';
import { toMemoryJson } from '../../memories/record.ts';
import { bool, fraction, limit, namespace, uuid } from '../../schemas/parse.ts';

type Body = Record<string, unknown>;

export const maintenanceRoutes: FastifyPluginAsync<MemoryContext> = async (app, { store, config }) => {
  const maxPerCall = config.MAINTENANCE_MAX_PER_CALL;

  app.post<{ Body: Body | undefined }>(
    '/importance',
    {
      schema: { body: importanceBody },
      config: {
        access: 'write',
        description: 'recomputes importance of live memories from access, recency, links, feedback and pinning',
        requestType: 'ImportanceRequest',
        responseType: '{namespace, considered, updated, average_before, average_after}',
      },
    },
    async (request) => recomputeImportance(store, namespace(request.body?.namespace)),
  );

  app.post<{ Body: Body | undefined }>(
    '/prune',
    {
      schema: { body: pruneBody },
      config: {
        access: 'write',
        description: 'deprecates orphaned memories (no room, no edges, no document) unused for ttl_days',
        requestType: 'PruneRequest',
        responseType: '{dry_run, namespace, ttl_days, action, pruned, ids, truncated}',
      },
    },
    async (request) => {
      const body = request.body ?? {};
      return pruneOrphans(store, {
        dryRun: bool(body.dry_run, 'dry_run') ?? false,
        namespace: namespace(body.namespace),
        ttlDays: wholeNumber(body.ttl_days, config.LIFECYCLE_WARM_DAYS, 0, MAX_DAYS, 'ttl_days'),
        maxPerCall,
      });
    },
  );

  app.post<{ Body: Body | undefined }>(
    '/consolidate',
    {
      schema: { body: consolidateBody },
      config: {
        access: 'write',
        description:
          'merges near-duplicate live memories of a namespace (cosine >= threshold); one transaction per group',
        requestType: 'ConsolidateRequest',
        responseType: '{dry_run, namespace, threshold, groups, merged, merges, truncated}',
      },
    },
    async (request) => {
      const body = request.body ?? {};
      const threshold = fraction(body.threshold, 'threshold') ?? config.CONSOLIDATE_THRESHOLD;
      // Below this nearly everything is "similar": a typo, not a wish to merge a namespace into one memory.
      if (threshold < 0.5) throw badRequest('threshold must be a number from 0.5 to 1.0');
      return consolidate(store, {
        dryRun: bool(body.dry_run, 'dry_run') ?? false,
        namespace: namespace(body.namespace),
        threshold,
        maxPerCall,
      });
    },
  );

  app.post<{ Body: { id_keep: string; id_remove: string; hard_delete?: boolean } }>(
    '/consolidate/pair',
    {
      schema: { body: consolidatePairBody },
      config: {
        access: 'write',
        description: 'keeps id_keep; deprecates id_remove (or deletes it with hard_delete: true)',
        requestType: 'ConsolidatePairRequest {id_keep, id_remove, hard_delete?}',
        responseType: '{kept, removed, hard_deleted, similarity}',
      },
    },
    async (request) => {
      const keepId = uuid(request.body.id_keep, 'id_keep');
      const removeId = uuid(request.body.id_remove, 'id_remove');
      const hardDelete = request.body.hard_delete ?? false;
      if (keepId === removeId) throw badRequest('id_keep and id_remove must differ');
      const rows = await store.getMany([keepId, removeId]);
      const keep = rows.get(keepId);
      const remove = rows.get(removeId);
      if (!keep) throw notFound(`no memory with id ${keepId}`);
      if (!remove) throw notFound(`no memory with id ${removeId}`);
      if (keep.namespace !== remove.namespace)
        throw badRequest(`id_keep is in namespace ${keep.namespace} and id_remove in ${remove.namespace}`);
      if (keep.status !== 'active') throw conflict(`memory ${keepId} (id_keep) is deprecated; promote it first`);
      if (remove.pinned) throw conflict(`memory ${removeId} (id_remove) is pinned; unpin it first`);
      if (remove.status !== 'active' && !hardDelete)
        throw conflict(`memory ${removeId} (id_remove) is already deprecated`);
      const vectors = await store.vectorsOf([keepId, removeId]);
      const a = vectors.get(keepId);
      const b = vectors.get(removeId);
      const similarity = a && b ? Math.round(dot(a, b) * 10_000) / 10_000 : null;
      const removed = await mergeGroup(
        store,
        { keeper: keepId, namespace: keep.namespace, members: [{ id: removeId, similarity }] },
        { actor: 'api', reason: 'consolidate_pair', hardDelete },
      );
      // The checks above passed, so only a concurrent change can get here.
      if (removed.length === 0) throw conflict('the memories changed meanwhile; nothing was merged');
      const kept = await store.get(keepId);
      return {
        kept: kept ? toMemoryJson(kept) : null,
        removed: { id: removeId, status: hardDelete ? 'deleted' : 'deprecated' },
        hard_deleted: hardDelete,
        similarity,
      };
    },
  );

  app.post<{ Body: Body | undefined }>(
    '/aging',
    {
      schema: { body: agingBody },
      config: {
        access: 'write',
        description: 'deprioritizes (halves importance) or deprecates stale, rarely read, unpinned memories',
        requestType: 'AgingRequest',
        responseType:
          '{action, dry_run, namespace, older_than_days, max_access_count, matched, changed, ids, truncated}',
      },
    },
    async (request) => {
      const body = request.body ?? {};
      const action = (body.action ?? 'deprioritize') as AgingAction;
      if (!AGING_ACTIONS.includes(action))
        throw badRequest(`unknown action ${JSON.stringify(body.action)}; valid actions: ${AGING_ACTIONS.join(', ')}`);
      return runAging(store, {
        action,
        dryRun: bool(body.dry_run, 'dry_run') ?? false,
        namespace: namespace(body.namespace),
        olderThanDays: wholeNumber(body.older_than_days, config.LIFECYCLE_WARM_DAYS, 0, MAX_DAYS, 'older_than_days'),
        maxAccessCount: wholeNumber(
          body.max_access_count,
          DEFAULT_MAX_ACCESS_COUNT,
          0,
          MAX_ACCESS_BOUND,
          'max_access_count',
        ),
        maxPerCall,
      });
    },
  );

  app.post<{ Body: Body | undefined }>(
    '/orphans',
    {
      schema: { body: orphansBody },
      config: {
        access: 'read',
        description: 'lists live, unpinned memories with no room, no edges and no document; threshold: most importance',
        requestType: 'OrphansRequest',
        responseType: '{namespace, threshold, total, orphans}',
      },
    },
    async (request) => {
      const body = request.body ?? {};
      const ns = namespace(body.namespace);
      const threshold = fraction(body.threshold, 'threshold') ?? 1;
      const found = await listOrphans(store, {
        namespace: ns,
        maxImportance: threshold,
        limit: limit(body.limit, 50, 1000),
      });
      return { namespace: ns ?? null, threshold, total: found.total, orphans: found.rows.map(toMemoryJson) };
    },
  );
};
