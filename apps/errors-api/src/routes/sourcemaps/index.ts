import { createGunzip } from 'node:zlib';
import multipart from '@fastify/multipart';
import { badRequest, notFound, payloadTooLarge } from '@trove/service-kit';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.ts';
import { publicBase } from '../../projects/project-json.ts';
import {
  assembleBundleSchema,
  assembleReleaseSchema,
  chunkOptionsSchema,
  chunkUploadSchema,
  newReleaseSchema,
} from '../../schemas/sourcemaps.ts';
import { sha1 } from '../../sourcemaps/bundle-store.ts';
import { sourceMaps } from '../../sourcemaps/resolver.ts';

const CHUNK_SIZE = 8 * 1024 * 1024;
const CHUNKS_PER_REQUEST = 4;
const MAX_FILE_SIZE = 256 * 1024 * 1024;

type Org = { Params: { org: string } };
interface AssembleBody {
  checksum: string;
  chunks: string[];
  projects?: string[];
  version?: string;
  dist?: string;
}

/**
 * The routes sentry-cli calls for `sourcemaps upload` (registered under the release routes, whose
 * hook signs the caller in by session or auth token): chunk options, chunk upload, and assembly
 * of the chunks into an artifact bundle, which is stored at once (no background job).
 */
export const sourceMapRoutes: FastifyPluginAsync<AppContext> = async (app, { db, config, logger }) => {
  const { store, resolver } = sourceMaps(db, config, logger);
  // One organization per deployment: sentry-cli's `--org`.
  const organization = config.ORGANIZATION_SLUG;
  await app.register(multipart, { limits: { fileSize: CHUNK_SIZE, files: CHUNKS_PER_REQUEST * 2, fields: 10 } });

  app.addHook('preHandler', async (request) => {
    const { org } = request.params as { org?: string };
    if (org !== undefined && org !== organization) {
      throw notFound(
        `no organization "${org}": this server has one, "${organization}" (sentry-cli --org ${organization})`,
      );
    }
  });

  app.get<Org>('/api/0/organizations/:org/chunk-upload/', { schema: chunkOptionsSchema }, async (request) => ({
    url: new URL(`/api/0/organizations/${organization}/chunk-upload/`, publicBase(config, request)).toString(),
    chunkSize: CHUNK_SIZE,
    chunksPerRequest: CHUNKS_PER_REQUEST,
    maxFileSize: MAX_FILE_SIZE,
    maxRequestSize: CHUNK_SIZE * CHUNKS_PER_REQUEST + 1024 * 1024,
    maxWait: 60,
    concurrency: 2,
    hashAlgorithm: 'sha1',
    compression: ['gzip'],
    accept: ['release_files', 'artifact_bundles'],
  }));

  app.post<Org>(
    '/api/0/organizations/:org/chunk-upload/',
    { schema: chunkUploadSchema, bodyLimit: CHUNK_SIZE * CHUNKS_PER_REQUEST + 1024 * 1024 },
    async (request) => {
      if (!request.isMultipart()) throw badRequest('send the chunks as multipart/form-data parts named "file"');
      for await (const part of request.files()) {
        const stream = part.fieldname === 'file_gzip' ? part.file.pipe(createGunzip()) : part.file;
        const pieces: Buffer[] = [];
        let size = 0;
        for await (const piece of stream) {
          size += piece.length;
          if (size > CHUNK_SIZE) throw payloadTooLarge(`a chunk may hold at most ${CHUNK_SIZE} bytes`);
          pieces.push(piece);
        }
        if (part.file.truncated) throw payloadTooLarge(`a chunk may hold at most ${CHUNK_SIZE} bytes`);
        const content = Buffer.concat(pieces);
        const checksum = sha1(content);
        if (part.filename !== checksum)
          throw badRequest(`chunk "${part.filename}" has sha1 ${checksum}: name each part by its sha1`);
        await db.sql.query(
          'INSERT INTO upload_chunks (checksum, content) VALUES ($1, $2) ON CONFLICT (checksum) DO NOTHING',
          [checksum, content],
        );
      }
      return {};
    },
  );

  async function projectIds(slugs: string[]): Promise<number[]> {
    const rows = await db.prisma.project.findMany({ where: { slug: { in: slugs } }, select: { id: true, slug: true } });
    const unknown = slugs.filter((s) => !rows.some((r) => r.slug === s));
    if (unknown.length > 0) throw notFound(`no project with slug "${unknown[0]}"`);
    return rows.map((r) => r.id);
  }

  /** Assembles once every chunk is here; until then names the missing ones (sentry-cli uploads them and asks again). */
  async function assemble(ids: number[], body: AssembleBody, release: string | null) {
    const have = await db.prisma.artifactBundle.count({ where: { projectId: { in: ids }, checksum: body.checksum } });
    if (have === ids.length) return { state: 'ok', missingChunks: [] };
    const rows = await db.sql.query<{ checksum: string; content: Uint8Array }>(
      'SELECT checksum, content FROM upload_chunks WHERE checksum = ANY($1::text[])',
      [body.chunks],
    );
    const byChecksum = new Map(rows.map((r) => [r.checksum, r.content]));
    const missing = [...new Set(body.chunks.filter((c) => !byChecksum.has(c)))];
    if (missing.length > 0) return { state: 'not_found', missingChunks: missing };
    const zip = Buffer.concat(body.chunks.map((c) => byChecksum.get(c) as Uint8Array));
    if (zip.length > MAX_FILE_SIZE) return { state: 'error', missingChunks: [], detail: 'the bundle is too large' };
    if (sha1(zip) !== body.checksum) {
      return { state: 'error', missingChunks: [], detail: 'the chunks do not add up to the checksum' };
    }
    try {
      await store.store(ids, zip, release, body.dist ?? null);
    } catch (err) {
      return { state: 'error', missingChunks: [], detail: (err as Error).message };
    }
    await db.sql.query('DELETE FROM upload_chunks WHERE checksum = ANY($1::text[])', [body.chunks]);
    for (const id of ids) resolver.forget(id);
    return { state: 'ok', missingChunks: [] };
  }

  app.post<Org & { Body: AssembleBody }>(
    '/api/0/organizations/:org/artifactbundle/assemble/',
    { schema: assembleBundleSchema },
    async (request) => {
      const ids = await projectIds(request.body.projects ?? []);
      return assemble(ids, request.body, request.body.version ?? null);
    },
  );

  app.post<{ Params: { org: string; version: string }; Body: AssembleBody }>(
    '/api/0/organizations/:org/releases/:version/assemble/',
    { schema: assembleReleaseSchema },
    async (request) => {
      const { version } = request.params;
      const releases = await db.prisma.release.findMany({ where: { version }, select: { projectId: true } });
      if (releases.length === 0) throw notFound(`no release "${version}": create it first (sentry-cli releases new)`);
      return assemble(
        releases.map((r) => r.projectId),
        request.body,
        version,
      );
    },
  );

  app.post<Org & { Body: { version: string; projects: string[] } }>(
    '/api/0/organizations/:org/releases/',
    { schema: newReleaseSchema },
    async (request, reply) => {
      const { version, projects } = request.body;
      const ids = await projectIds(projects);
      await db.prisma.release.createMany({
        data: ids.map((projectId) => ({ projectId, version })),
        skipDuplicates: true,
      });
      const made = await db.prisma.release.findFirst({ where: { version, projectId: { in: ids } } });
      return reply.code(201).send({
        version,
        shortVersion: version,
        dateCreated: (made?.dateCreated ?? new Date()).toISOString(),
        dateReleased: null,
        lastEvent: null,
        newGroups: 0,
        projects: projects.map((slug) => ({ slug, name: slug })),
      });
    },
  );
};
