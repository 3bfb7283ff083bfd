import { Readable } from 'node:stream';
import { badRequest } from '@trove/service-kit';
import { parseImport } from '../../memories/import-records.ts';
import { exportMemories, importMemories } from '../../memories/transfer.ts';
import { namespace } from '../../schemas/parse.ts';
import { exportQuery, importBody } from '../../schemas/requests.ts';
import { type RoutePlugin, read, write } from '../define.ts';

export const transferRoutes: RoutePlugin = async (app, { store }) => {
  app.post(
    '/import',
    {
      schema: { body: importBody },
      config: write(
        'imports memories from JSONL (one memory per line); into another namespace it copies with new ids',
        'ImportRequest',
        '{imported, skipped, already_present, copied_with_new_ids, total}',
      ),
    },
    async (request) => {
      const target = namespace(request.body.namespace);
      const parsed = parseImport(request.body.content, { namespace: target, tags: request.body.tags }, new Date());
      if ('error' in parsed) throw badRequest(parsed.error);
      return importMemories(store, parsed.records);
    },
  );

  app.get(
    '/export',
    {
      schema: { querystring: exportQuery },
      config: read(
        'every memory (deprecated too) as a JSON array, or JSONL with format=jsonl; streamed, by id',
        'query namespace, format, after',
        'Memory[]',
      ),
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
