import { badRequest } from '@trove/service-kit';
import { inferMemoryType } from '../../memories/memory-types.ts';
import { toMemoryJson } from '../../memories/record.ts';
import { namespace, optionalString, timestamp } from '../../schemas/parse.ts';
import { rememberBody } from '../../schemas/requests.ts';
import { type RoutePlugin, write } from '../define.ts';

export const DEFAULT_NAMESPACE = 'default';

export const rememberRoutes: RoutePlugin = async (app, { store }) => {
  app.post(
    '/remember',
    {
      schema: { body: rememberBody },
      config: write('stores a memory', 'RememberRequest', 'Memory'),
    },
    async (request, reply) => {
      const body = request.body;
      const content = body.content.trim();
      if (!content) throw badRequest('content must not be empty');
      const inferred = body.type === undefined;
      const metadata = { ...body.metadata };
      const category = optionalString(body.category, 'category');
      const entity = optionalString(body.entity, 'entity');
      if (category !== undefined) metadata.category = category;
      if (entity !== undefined) metadata.entity = entity;
      const validFrom = timestamp(body.valid_from, 'valid_from') ?? null;
      const validUntil = timestamp(body.valid_until, 'valid_until') ?? null;
      if (validFrom && validUntil && validUntil < validFrom)
        throw badRequest('valid_until must not be before valid_from');
      const memoryType = body.type ?? inferMemoryType(content);
      const result = await store.remember({
        content,
        tags: [...new Set((body.tags ?? []).map((t) => t.trim()).filter(Boolean))],
        namespace: namespace(body.namespace) ?? DEFAULT_NAMESPACE,
        memoryType,
        metadata,
        source: optionalString(body.source, 'source', 2000) ?? null,
        sourceType: optionalString(body.source_type, 'source_type') ?? 'user',
        authorType: optionalString(body.author_type, 'author_type') ?? null,
        validFrom,
        validUntil,
        detectContradiction: body.detect_contradiction === true,
        importance: body.importance,
        pinned: body.pinned === true,
        evidence: { type_inferred: inferred },
      });
      const json = toMemoryJson(result.row);
      if (!result.created) {
        // An existing live memory says the same thing: return it, store nothing.
        return reply.code(200).send({ ...json, duplicate: true, similarity: round(result.duplicateSimilarity ?? 1) });
      }
      return reply.code(201).send({
        ...json,
        ...(result.superseded
          ? { superseded: { id: result.superseded.id, similarity: round(result.superseded.similarity) } }
          : {}),
      });
    },
  );
};

const round = (x: number) => Math.round(x * 1e4) / 1e4;
