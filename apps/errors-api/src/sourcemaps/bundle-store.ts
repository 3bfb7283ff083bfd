import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { badRequest } from '@trove/service-kit';
import { unzipSync } from 'fflate';
import type { ErrorsConfig } from '../config.ts';
import type { ErrorsDatabase } from '../db.ts';

/** A file sentry-cli listed in a bundle's manifest.json. */
interface ManifestFile {
  url?: unknown;
  type?: unknown;
  headers?: Record<string, unknown>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const TYPES = new Set(['minified_source', 'source_map', 'source', 'indexed_ram_bundle']);

export const sha1 = (bytes: Uint8Array) => createHash('sha1').update(bytes).digest('hex');

function header(headers: Record<string, unknown> | undefined, name: string): string | undefined {
  for (const [key, value] of Object.entries(headers ?? {})) {
    if (key.toLowerCase() === name && typeof value === 'string') return value;
  }
  return undefined;
}

/**
 * Artifact bundles per project. On Postgres the zip is a bytea column, so every replica reads
 * it; on the embedded database it is a file under DATA_DIR/artifact-bundles (named by its sha1),
 * which keeps the single-file database small. Either way its files are indexed in the database,
 * by debug id and by release and URL.
 */
export class BundleStore {
  private readonly dir: string | undefined;

  constructor(
    private readonly db: ErrorsDatabase,
    config: ErrorsConfig,
  ) {
    this.dir =
      db.kind === 'pglite' && !config.DATA_DIR.startsWith('memory://')
        ? join(config.DATA_DIR, 'artifact-bundles')
        : undefined;
  }

  /** Reads a zip's manifest and stores the bundle for each project (once per project and checksum). */
  async store(projectIds: number[], zip: Uint8Array, release: string | null, dist: string | null): Promise<void> {
    const checksum = sha1(zip);
    let manifest: { files?: Record<string, ManifestFile>; release?: unknown; dist?: unknown };
    try {
      const entry = unzipSync(zip, { filter: (f) => f.name === 'manifest.json' })['manifest.json'];
      if (!entry) throw new Error('no manifest.json');
      manifest = JSON.parse(Buffer.from(entry).toString('utf8'));
    } catch (err) {
      throw badRequest(`not an artifact bundle: ${(err as Error).message}`);
    }
    const bundleRelease = release ?? (typeof manifest.release === 'string' ? manifest.release : null);
    const bundleDist = dist ?? (typeof manifest.dist === 'string' ? manifest.dist : null);
    const files = Object.entries(manifest.files ?? {}).flatMap(([path, file]) => {
      const type = typeof file.type === 'string' && TYPES.has(file.type) ? file.type : undefined;
      if (!type || typeof file.url !== 'string') return [];
      const debugId = header(file.headers, 'debug-id')?.toLowerCase();
      return [
        {
          path,
          url: file.url,
          type,
          debugId: debugId && UUID.test(debugId) ? debugId : null,
          release: bundleRelease,
          dist: bundleDist,
          sourcemap: header(file.headers, 'sourcemap') ?? null,
        },
      ];
    });
    if (this.dir) {
      await mkdir(this.dir, { recursive: true });
      const target = join(this.dir, `${checksum}.zip`);
      await writeFile(`${target}.tmp`, zip);
      await rename(`${target}.tmp`, target);
    }
    for (const projectId of projectIds) {
      await this.db.prisma.$transaction(async (tx) => {
        const existing = await tx.artifactBundle.findUnique({ where: { projectId_checksum: { projectId, checksum } } });
        if (existing) return;
        const bundle = await tx.artifactBundle.create({
          data: {
            projectId,
            checksum,
            release: bundleRelease,
            dist: bundleDist,
            content: this.dir ? null : Buffer.from(zip),
          },
        });
        await tx.artifactBundleFile.createMany({ data: files.map((f) => ({ ...f, bundleId: bundle.id, projectId })) });
      });
    }
  }

  /** The bytes of one file of a bundle. */
  async read(bundleId: string, path: string): Promise<Uint8Array | undefined> {
    const bundle = await this.db.prisma.artifactBundle.findUnique({ where: { id: bundleId } });
    if (!bundle) return undefined;
    const zip = bundle.content ?? (this.dir ? await readFile(join(this.dir, `${bundle.checksum}.zip`)) : undefined);
    if (!zip) return undefined;
    return unzipSync(zip, { filter: (f) => f.name === path })[path];
  }
}
