import { badRequest, notFound } from '@trove/service-kit';
import type { FastifyPluginAsync } from 'fastify';
import type { Static } from 'typebox';
import type { MemoryContext } from '../../context.ts';
import { type MemoryRow, toMemoryJson } from '../../memories/record.ts';
import type { MemoryPatch } from '../../memories/store-inputs.ts';
import { bool, fraction, namespace, object, tagList, uuid } from '../../schemas/parse.ts';
import {
  idQuery,
  memoryFeedbackBody,
  memoryImportanceBody,
  memoryPinBody,
  memoryUpdateBody,
  pinBody,
} from '../../schemas/requests.ts';

const found = (row: MemoryRow | null, id: string) => {
  if (!row) throw notFound(`no memory with id ${id}`);
  return toMemoryJson(row);
};

export const memoryRoutes: FastifyPluginAsync<MemoryContext> = async (app, { store }) => {
  app.get<{ Querystring: { id?: string } }>(
    '/memory',
    {
      schema: { querystring: idQuery },
      config: { access: 'read', description: 'one memory by id', requestType: 'query id', responseType: 'Memory' },
    },
    async (request) => {
      const id = uuid(request.query.id);
      return found(await store.get(id), id);
    },
  );

  app.put<{ Body: Static<typeof memoryUpdateBody> }>(
    '/memory',
    {
      schema: { body: memoryUpdateBody },
      config: {
        access: 'write',
        description: 'replaces the given fields of a memory',
        requestType: 'MemoryUpdateRequest',
        responseType: 'Memory',
      },
    },
    async (request) => {
      const body = request.body;
      const id = uuid(body.id);
      const patch: MemoryPatch = {};
      if (body.content !== undefined) {
        if (body.content.trim() === '') throw badRequest('content must be a non-empty string');
        patch.content = body.content.trim();
      }
      patch.memoryType = body.memory_type;
      patch.importance = fraction(body.importance, 'importance');
      patch.metadata = object(body.metadata, 'metadata');
      patch.namespace = namespace(body.namespace);
      patch.pinned = bool(body.pinned, 'pinned');
      patch.tags = tagList(body.tags);
      return found(await store.update(id, patch), id);
    },
  );

  app.delete<{ Querystring: { id?: string }; Body: { id?: unknown } | undefined }>(
    '/forget',
    {
      schema: { querystring: idQuery },
      config: {
        access: 'write',
        description: 'deprecates (soft-deletes) a memory; query or body `id`',
        requestType: 'query id',
        responseType: 'Memory',
      },
    },
    async (request) => {
      const id = uuid(request.query.id ?? (request.body as { id?: unknown } | undefined)?.id);
      const row = await store.forget(id);
      return { ok: true, ...found(row, id) };
    },
  );

  const pin = (pinned: boolean) => async (id: string) =>
    found(await store.setField(id, { pinned }, { kind: pinned ? 'pinned' : 'unpinned', evidence: {} }), id);

  app.post<{ Body: { id: string; pinned: boolean } }>(
    '/memory/pin',
    {
      schema: { body: memoryPinBody },
      config: {
        access: 'write',
        description: 'pins or unpins a memory',
        requestType: 'MemoryPinRequest',
        responseType: 'Memory',
      },
    },
    async (request) => pin(request.body.pinned)(uuid(request.body.id)),
  );
  app.post<{ Body: { id: string } }>(
    '/pin',
    {
      schema: { body: pinBody },
      config: {
        access: 'write',
        description: 'legacy: pins a memory',
        requestType: 'PinRequest',
        responseType: 'Memory',
      },
    },
    async (request) => pin(true)(uuid(request.body.id)),
  );
  app.post<{ Body: { id: string } }>(
    '/unpin',
    {
      schema: { body: pinBody },
      config: {
        access: 'write',
        description: 'legacy: unpins a memory',
        requestType: 'PinRequest',
        responseType: 'Memory',
      },
    },
    async (request) => pin(false)(uuid(request.body.id)),
  );

  app.post<{ Body: { id: string; importance: number } }>(
    '/memory/importance',
    {
      schema: { body: memoryImportanceBody },
      config: {
        access: 'write',
        description: 'sets the importance (0.0 to 1.0) of a memory',
        requestType: 'MemoryImportanceRequest',
        responseType: 'Memory',
      },
    },
    async (request) => {
      const id = uuid(request.body.id);
      const importance = fraction(request.body.importance, 'importance') as number;
      return found(await store.setField(id, { importance }, { kind: 'importance_set', evidence: { importance } }), id);
    },
  );

  app.post<{ Body: { id: string; feedback: 'helpful' | 'unhelpful' } }>(
    '/memory/feedback',
    {
      schema: { body: memoryFeedbackBody },
      config: {
        access: 'write',
        description: 'records helpful/unhelpful feedback (a ranking and trust signal)',
        requestType: 'MemoryFeedbackRequest',
        responseType: 'Memory',
      },
    },
    async (request) => {
      const id = uuid(request.body.id);
      const helpful = request.body.feedback === 'helpful';
      const data = helpful ? { helpfulCount: { increment: 1 } } : { unhelpfulCount: { increment: 1 } };
      return found(
        await store.setField(id, data, { kind: 'feedback', evidence: { feedback: request.body.feedback } }),
        id,
      );
    },
  );
};
