import { Readable } from 'node:stream';
import { badRequest } from '@trove/service-kit';
import type { FastifyPluginAsync } from 'fastify';
import type { MemoryContext } from '../../context.ts';
import { parseImport } from '../../memories/import-records.ts';
import { exportMemories, importMemories } from '../../memories/transfer.ts';
import { namespace } from '../../schemas/parse.ts';
import { exportQuery, importBody } from '../../schemas/requests.ts';

export const transferRoutes: FastifyPluginAsync<MemoryContext> = async (app, { store }) => {
  app.post<{ Body: { content: string; namespace?: string; tags?: string[] } }>(
    '/import',
    {
      schema: { body: importBody },
      config: {
        access: 'write',
        description: 'imports memories from JSONL (one memory per line); into another namespace it copies with new ids',
        requestType: 'ImportRequest',
        responseType: '{imported, skipped, already_present, copied_with_new_ids, total}',
      },
    },
    async (request) => {
      const target = namespace(request.body.namespace);
      const parsed = parseImport(request.body.content, { namespace: target, tags: request.body.tags }, new Date());
      if ('error' in parsed) throw badRequest(parsed.error);
      return importMemories(store, parsed.records);
    },
  );

  app.get<{ Querystring: { namespace?: string; format?: 'json' | 'jsonl'; after?: string } }>(
    '/export',
    {
      schema: { querystring: exportQuery },
      config: {
        access: 'read',
        description: 'every memory (deprecated too) as a JSON array, or JSONL with format=jsonl; streamed, by id',
        requestType: 'query namespace, format, after',
        responseType: 'Memory[]',
      },
    },
    async (request, reply) => {
      const format = request.query.format ?? 'json';
      const rows = exportMemories(store, {
        namespace: namespace(request.query.namespace),
        after: request.query.after?.toLowerCase(),
        format,
      });
      return reply
        .type(format === 'jsonl' ? 'application/x-ndjson' : 'application/json; charset=utf-8')
        .send(Readable.from(rows));
    },
  );
};
