import { TraceMap } from '@jridgewell/trace-mapping';
import type { Logger } from '@trove/service-kit';
import type { ErrorsConfig } from '../config.ts';
import type { ErrorsDatabase } from '../db.ts';
import { asObject, type Json } from '../ingest/event-shape.ts';
import { BundleStore } from './bundle-store.ts';
import { originalFrame } from './original-frame.ts';

/** How long "this project has no bundles" and lookups are trusted before the database is asked again. */
const TTL_MS = 5_000;
const MAPS_CACHED = 64;

interface MapRef {
  bundleId: string;
  path: string;
  how: string;
}

interface FileRow {
  bundle_id: string;
  path: string;
  url: string;
  type: string;
  sourcemap: string | null;
}

/** Whether a project has bundles, as last read (undefined until the first read), and a read in progress. */
interface BundlesKnown {
  value: boolean | undefined;
  at: number;
  refresh?: Promise<boolean>;
}

type Frame = Json & { filename?: unknown; abs_path?: unknown; lineno?: unknown; colno?: unknown; function?: unknown };

const pathOf = (url: string) => url.replace(/^[a-z]+:\/\/[^/]*/i, '').replace(/^~/, '');

/**
 * Turns minified frames into original ones with the project's artifact bundles: by the debug id
 * the SDK reports for the frame's file (`sourcemaps inject`), else by the event's release and the
 * file's URL (uploads with `--release`). Caches parsed maps, and for a few seconds each lookup and
 * whether a project has any bundle, so a project without source maps costs ingest a map lookup.
 */
export class SourceMapResolver {
  private readonly bundles = new Map<number, BundlesKnown>();
  private readonly lookups = new Map<string, { value: unknown; at: number }>();
  private readonly maps = new Map<string, Promise<TraceMap | undefined>>();

  constructor(
    private readonly db: ErrorsDatabase,
    private readonly store: BundleStore,
    private readonly logger?: Logger,
  ) {}

  /** After an upload: this replica sees the new bundle at once (others within TTL_MS). */
  forget(projectId: number): void {
    this.bundles.delete(projectId);
    for (const key of this.lookups.keys()) if (key.startsWith(`${projectId}:`)) this.lookups.delete(key);
  }

  private async cached<T>(key: string, load: () => Promise<T>): Promise<T> {
    const hit = this.lookups.get(key);
    if (hit && Date.now() - hit.at < TTL_MS) return hit.value as T;
    const value = await load();
    this.lookups.set(key, { value, at: Date.now() });
    if (this.lookups.size > 10_000) this.lookups.clear();
    return value;
  }

  /**
   * Whether the project has any bundle. Ingest asks for every event, so once the answer is known it
   * never waits for the database: a stale answer is given while one query refreshes it in the
   * background. (Each request asking the database itself, every 5 s, held a burst of requests
   * behind the ingest statement on the embedded database's one connection.)
   */
  async hasBundles(projectId: number): Promise<boolean> {
    const entry = this.bundles.get(projectId);
    if (entry?.value === undefined) return entry?.refresh ?? this.refreshBundles(projectId);
    this.refreshIfStale(projectId, entry);
    return entry.value;
  }

  /**
   * True when the project is known to have no bundles (the cached answer, refreshed in the
   * background once stale): ingest then skips resolution without a promise or a turn of the
   * event loop per event.
   */
  knownWithoutBundles(projectId: number): boolean {
    const entry = this.bundles.get(projectId);
    if (entry?.value !== false) return false;
    this.refreshIfStale(projectId, entry);
    return true;
  }

  private refreshIfStale(projectId: number, entry: BundlesKnown): void {
    if (Date.now() - entry.at >= TTL_MS && !entry.refresh) this.refreshBundles(projectId, entry).catch(() => {});
  }

  private refreshBundles(projectId: number, stale?: BundlesKnown): Promise<boolean> {
    const entry: BundlesKnown = { value: stale?.value, at: stale?.at ?? 0 };
    // Only this query's own entry is replaced: forget() (an upload) may have dropped it meanwhile.
    const settle = (next: BundlesKnown | undefined) => {
      if (this.bundles.get(projectId) !== entry) return;
      if (next) this.bundles.set(projectId, next);
      else this.bundles.delete(projectId);
    };
    entry.refresh = this.db.sql.query('SELECT 1 FROM artifact_bundles WHERE project_id = $1 LIMIT 1', [projectId]).then(
      ([row]) => {
        settle({ value: row !== undefined, at: Date.now() });
        return row !== undefined;
      },
      (err) => {
        // The next call asks again.
        settle(stale && { value: stale.value, at: stale.at });
        throw err;
      },
    );
    this.bundles.set(projectId, entry);
    return entry.refresh;
  }

  private byDebugId(projectId: number, debugId: string): Promise<MapRef | null> {
    return this.cached(`${projectId}:d:${debugId}`, async () => {
      const [row] = await this.db.sql.query<FileRow>(
        `SELECT bundle_id, path FROM artifact_bundle_files WHERE project_id = $1 AND debug_id = $2::uuid
         AND type = 'source_map' ORDER BY bundle_id LIMIT 1`,
        [projectId, debugId],
      );
      return row ? { bundleId: row.bundle_id, path: row.path, how: `debug id ${debugId}` } : null;
    });
  }

  private releaseFiles(projectId: number, release: string): Promise<FileRow[]> {
    return this.cached(`${projectId}:r:${release}`, () =>
      this.db.sql.query<FileRow>(
        'SELECT bundle_id, path, url, type, sourcemap FROM artifact_bundle_files WHERE project_id = $1 AND release = $2',
        [projectId, release],
      ),
    );
  }

  /** The map of a minified file of the release whose URL path ends the frame's path (the longest such). */
  private async byRelease(projectId: number, release: string, file: string): Promise<MapRef | null> {
    const files = await this.releaseFiles(projectId, release);
    const path = pathOf(file);
    const minified = files
      .filter((f) => f.type === 'minified_source' && path.endsWith(pathOf(f.url)))
      .sort((a, b) => b.url.length - a.url.length)[0];
    if (!minified) return null;
    const mapUrl = minified.sourcemap
      ? new URL(minified.sourcemap, `http://x${pathOf(minified.url)}`).pathname
      : `${pathOf(minified.url)}.map`;
    const map = files.find(
      (f) => f.type === 'source_map' && f.bundle_id === minified.bundle_id && pathOf(f.url) === mapUrl,
    );
    return map ? { bundleId: map.bundle_id, path: map.path, how: `release ${release}, ${map.url}` } : null;
  }

  private map(ref: MapRef): Promise<TraceMap | undefined> {
    const key = `${ref.bundleId}/${ref.path}`;
    let map = this.maps.get(key);
    if (!map) {
      map = this.store.read(ref.bundleId, ref.path).then(
        (bytes) => (bytes ? new TraceMap(Buffer.from(bytes).toString('utf8')) : undefined),
        (err) => {
          this.logger?.warn({ err, bundle: ref.bundleId, path: ref.path }, 'could not read a source map');
          this.maps.delete(key);
          return undefined;
        },
      );
      if (this.maps.size >= MAPS_CACHED) this.maps.delete(this.maps.keys().next().value as string);
      this.maps.set(key, map);
    }
    return map;
  }

  /**
   * Replaces each frame it can resolve with the original one, in place; the frames as sent stay in
   * each exception's `raw_stacktrace` (Sentry's name for them). True when any frame was resolved.
   */
  async resolve(event: Json, projectId: number): Promise<boolean> {
    const values = asObject(event.exception)?.values;
    if (!Array.isArray(values) || !(await this.hasBundles(projectId))) return false;
    const debugIds = new Map<string, string>();
    const images = asObject(event.debug_meta)?.images;
    for (const image of Array.isArray(images) ? images : []) {
      const i = asObject(image);
      if (i?.type === 'sourcemap' && typeof i.code_file === 'string' && typeof i.debug_id === 'string') {
        debugIds.set(i.code_file, i.debug_id.toLowerCase());
      }
    }
    const release = typeof event.release === 'string' ? event.release : undefined;
    let changed = false;
    for (const value of values) {
      const stacktrace = asObject(asObject(value)?.stacktrace);
      if (!stacktrace || !Array.isArray(stacktrace.frames) || asObject(value)?.raw_stacktrace) continue;
      const raw = stacktrace.frames as Frame[];
      const resolved = await Promise.all(
        raw.map((f) => this.resolveFrame(asObject(f) as Frame, projectId, debugIds, release)),
      );
      if (resolved.some((f, i) => f !== raw[i])) {
        (value as Json).raw_stacktrace = { frames: raw };
        stacktrace.frames = resolved;
        changed = true;
      }
    }
    return changed;
  }

  private async resolveFrame(
    frame: Frame | undefined,
    projectId: number,
    debugIds: Map<string, string>,
    release: string | undefined,
  ): Promise<Frame | undefined> {
    if (!frame) return frame;
    const file = typeof frame.abs_path === 'string' ? frame.abs_path : frame.filename;
    if (typeof file !== 'string' || typeof frame.lineno !== 'number' || typeof frame.colno !== 'number') return frame;
    const debugId =
      debugIds.get(file) ?? (typeof frame.filename === 'string' ? debugIds.get(frame.filename) : undefined);
    const ref =
      (debugId && (await this.byDebugId(projectId, debugId))) ||
      (release ? await this.byRelease(projectId, release, file) : null);
    if (!ref) return frame;
    const map = await this.map(ref);
    const original = map && originalFrame(map, frame.lineno, frame.colno, frame.function as string | undefined);
    if (!original) return frame;
    const { module: _minifiedModule, ...rest } = frame;
    return { ...rest, ...original, data: { ...asObject(frame.data), sourcemap: ref.how } };
  }
}

const instances = new WeakMap<ErrorsDatabase, { store: BundleStore; resolver: SourceMapResolver }>();

/** One store and resolver per database (each app has its own), so ingest, the API and the pages share caches. */
export function sourceMaps(db: ErrorsDatabase, config: ErrorsConfig, logger?: Logger) {
  let found = instances.get(db);
  if (!found) {
    const store = new BundleStore(db, config);
    found = { store, resolver: new SourceMapResolver(db, store, logger) };
    instances.set(db, found);
  }
  return found;
}
