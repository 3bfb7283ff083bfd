import { badRequest, Counter, HttpError, payloadTooLarge } from '@trove/service-kit';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { decodeBody } from '../../ingest/decode.ts';
import { parseEnvelope } from '../../ingest/envelope.ts';
import { compressPayload, normaliseEventId, parseEventJson, prepareEvent } from '../../ingest/prepare-event.ts';
import { checkKey, findIngestProject, keyFromDsn, keyFromRequest } from '../../ingest/project-auth.ts';
import type { IngestProject } from '../../projects/project-keys.ts';
import { corsPreflightSchema, envelopeRouteSchema, storeRouteSchema } from '../../schemas/ingest.ts';
import { sourceMaps } from '../../sourcemaps/resolver.ts';
import { decodeStoreBody } from './store-body.ts';

declare module 'fastify' {
  interface FastifyRequest {
    ingestProject?: IngestProject;
  }
}

/** Item types that hold an error event; everything else (sessions, transactions, logs...) is skipped. */
const EVENT_ITEM_TYPES = new Set(['event']);

export const ingestRoutes: FastifyPluginAsync<AppContext> = async (app, ctx) => {
  const { config, state, writer, projectKeys } = ctx;
  const { resolver } = sourceMaps(ctx.db, config, ctx.logger);
  const accepted = new Counter({
    name: 'errors_ingest_events_total',
    help: 'Error events received on ingest, by outcome',
    labelNames: ['outcome'] as const,
    registers: [app.metricsRegistry],
  });
  const decidedLocally = new Counter({
    name: 'errors_ingest_rate_limit_local_total',
    help: 'Ingest rate-limit decisions this replica made alone because Redis was unreachable',
    registers: [app.metricsRegistry],
  });

  // SDKs send no Content-Type, text/plain, or the envelope type, often chunked and gzipped: take
  // the raw bytes whatever the type says, and decode them in the handler.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: config.INGEST_MAX_REQUEST_BYTES }, (_req, body, done) =>
    done(null, body),
  );

  // Browser SDKs post from any origin; they must be able to read the status and rate-limit headers.
  app.addHook('onSend', async (_request, reply) => {
    reply.header('access-control-allow-origin', '*');
    reply.header('access-control-expose-headers', 'x-sentry-error, x-sentry-rate-limits, retry-after');
  });
  for (const url of ['/api/:project_id/envelope/', '/api/:project_id/store/']) {
    app.options(url, { schema: corsPreflightSchema }, async (_request, reply) =>
      reply
        .code(204)
        .header('access-control-allow-methods', 'POST, OPTIONS')
        .header(
          'access-control-allow-headers',
          'content-type, content-encoding, x-sentry-auth, authorization, sentry-trace, baggage',
        )
        .header('access-control-max-age', '86400')
        .send(),
    );
  }

  // The project and any key in headers or query are checked before the body is read, so an
  // unknown project or a revoked key costs no upload.
  app.addHook('preParsing', async (request) => {
    if (request.method === 'OPTIONS') return;
    const { project_id } = request.params as { project_id: string };
    const project = await findIngestProject(projectKeys, project_id);
    const key = keyFromRequest(request);
    if (key !== undefined) checkKey(project, key);
    request.ingestProject = project;
  });

  async function rateLimit(project: IngestProject, reply: FastifyReply): Promise<void> {
    if (config.INGEST_RATE_LIMIT_PER_MINUTE === 0) return;
    const result = await state.rateLimit(`ingest:${project.id}`, {
      limit: config.INGEST_RATE_LIMIT_PER_MINUTE,
      windowMs: 60_000,
    });
    // Redis unreachable: the limit held per replica (shared-state logs the outage once).
    if (!result.shared) decidedLocally.inc();
    if (result.allowed) return;
    accepted.inc({ outcome: 'rate_limited' });
    const seconds = Math.max(1, Math.ceil(result.retryAfterMs / 1000));
    // The SDKs read X-Sentry-Rate-Limits first: no categories means every kind of item.
    reply.header('x-sentry-rate-limits', `${seconds}::project`);
    throw new HttpError(429, `project ${project.id} is over its rate limit; retry after ${seconds} s`, {
      'retry-after': String(seconds),
    });
  }

  async function storeOne(request: FastifyRequest, reply: FastifyReply, eventBytes: Buffer, fallbackId?: string) {
    const project = request.ingestProject as IngestProject;
    if (eventBytes.length > config.INGEST_MAX_EVENT_BYTES) {
      throw payloadTooLarge(`event is larger than the limit of ${config.INGEST_MAX_EVENT_BYTES} bytes`);
    }
    const event = parseEventJson(eventBytes);
    // Grouping, title and culprit read the original frames when the project has source maps.
    if (!resolver.knownWithoutBundles(project.id)) {
      await resolver.resolve(event, project.id).catch((err) => request.log.warn({ err }, 'source maps not applied'));
    }
    const prepared = prepareEvent(event, project, fallbackId, compressPayload(eventBytes));
    await rateLimit(project, reply);
    await writer.write(prepared);
    accepted.inc({ outcome: 'accepted' });
    return { id: prepared.eventId };
  }

  app.post('/api/:project_id/envelope/', { schema: envelopeRouteSchema }, async (request, reply) => {
    const project = request.ingestProject as IngestProject;
    const raw = (request.body as Buffer | undefined) ?? Buffer.alloc(0);
    const body = await decodeBody(raw, request.headers['content-encoding'], config.INGEST_MAX_DECOMPRESSED_BYTES);
    const envelope = parseEnvelope(body);
    if (keyFromRequest(request) === undefined) checkKey(project, keyFromDsn(envelope.header.dsn));
    const events = envelope.items.filter((item) => EVENT_ITEM_TYPES.has(item.header.type));
    if (events.length > 1) throw badRequest('an envelope carries at most one event item');
    const [eventItem] = events;
    if (!eventItem) return {};
    return storeOne(request, reply, eventItem.payload, normaliseEventId(envelope.header.event_id));
  });

  app.post('/api/:project_id/store/', { schema: storeRouteSchema }, async (request, reply) => {
    const raw = (request.body as Buffer | undefined) ?? Buffer.alloc(0);
    const body = await decodeBody(raw, request.headers['content-encoding'], config.INGEST_MAX_DECOMPRESSED_BYTES);
    checkKey(request.ingestProject as IngestProject, keyFromRequest(request));
    return storeOne(request, reply, await decodeStoreBody(body, config.INGEST_MAX_DECOMPRESSED_BYTES));
  });
};
