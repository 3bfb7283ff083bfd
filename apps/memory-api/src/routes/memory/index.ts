import { badRequest, notFound } from '@trove/service-kit';
import { type MemoryRow, toMemoryJson } from '../../memories/record.ts';
import type { MemoryPatch } from '../../memories/store-inputs.ts';
import { namespace, tagList, uuid } from '../../schemas/parse.ts';
import {
  idQuery,
  memoryFeedbackBody,
  memoryImportanceBody,
  memoryPinBody,
  memoryUpdateBody,
  pinBody,
} from '../../schemas/requests.ts';
import { type RoutePlugin, read, write } from '../define.ts';

const found = (row: MemoryRow | null, id: string) => {
  if (!row) throw notFound(`no memory with id ${id}`);
  return toMemoryJson(row);
};

export const memoryRoutes: RoutePlugin = async (app, { store }) => {
  app.get(
    '/memory',
    {
      schema: { querystring: idQuery },
      config: read('one memory by id', 'query id', 'Memory'),
    },
    async (request) => {
      const id = uuid(request.query.id);
      return found(await store.get(id), id);
    },
  );

  app.put(
    '/memory',
    {
      schema: { body: memoryUpdateBody },
      config: write('replaces the given fields of a memory', 'MemoryUpdateRequest', 'Memory'),
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
      patch.importance = body.importance;
      patch.metadata = body.metadata;
      patch.namespace = namespace(body.namespace);
      patch.pinned = body.pinned;
      patch.tags = tagList(body.tags);
      return found(await store.update(id, patch), id);
    },
  );

  app.delete(
    '/forget',
    {
      schema: { querystring: idQuery, body: idQuery },
      config: write('deprecates (soft-deletes) a memory; query or body `id`', 'query id', 'Memory'),
    },
    async (request) => {
      const id = uuid(request.query.id ?? request.body.id);
      const row = await store.forget(id);
      return { ok: true, ...found(row, id) };
    },
  );

  const pin = (pinned: boolean) => async (id: string) =>
    found(await store.setField(id, 'pinned', pinned, { kind: pinned ? 'pinned' : 'unpinned', evidence: {} }), id);

  app.post(
    '/memory/pin',
    {
      schema: { body: memoryPinBody },
      config: write('pins or unpins a memory', 'MemoryPinRequest', 'Memory'),
    },
    async (request) => pin(request.body.pinned)(uuid(request.body.id)),
  );
  app.post(
    '/pin',
    {
      schema: { body: pinBody },
      config: write('legacy: pins a memory', 'PinRequest', 'Memory'),
    },
    async (request) => pin(true)(uuid(request.body.id)),
  );
  app.post(
    '/unpin',
    {
      schema: { body: pinBody },
      config: write('legacy: unpins a memory', 'PinRequest', 'Memory'),
    },
    async (request) => pin(false)(uuid(request.body.id)),
  );

  app.post(
    '/memory/importance',
    {
      schema: { body: memoryImportanceBody },
      config: write('sets the importance (0.0 to 1.0) of a memory', 'MemoryImportanceRequest', 'Memory'),
    },
    async (request) => {
      const id = uuid(request.body.id);
      const importance = request.body.importance;
      const event = { kind: 'importance_set', evidence: { importance } };
      return found(await store.setField(id, 'importance', importance, event), id);
    },
  );

  app.post(
    '/memory/feedback',
    {
      schema: { body: memoryFeedbackBody },
      config: write(
        'records helpful/unhelpful feedback (a ranking and trust signal)',
        'MemoryFeedbackRequest',
        'Memory',
      ),
    },
    async (request) => {
      const id = uuid(request.body.id);
      const { feedback } = request.body;
      return found(await store.setField(id, feedback, undefined, { kind: 'feedback', evidence: { feedback } }), id);
    },
  );
};
