/**
 * What resolving a minified stack costs once its map is cached: a 5-frame stack against a source
 * map of about 1 MB (a generated TypeScript app bundled and minified by esbuild), through the same
 * resolver ingest and the API use, on an embedded database holding the bundle:
 * `npx tsx apps/errors-api/bench/sourcemaps.ts` (BENCH_ITERATIONS).
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '@trove/service-kit';
import { percentile } from '@trove/stats';
import { build } from 'esbuild';
import { strToU8, zipSync } from 'fflate';
import { readConfig } from '../src/config.ts';
import { openErrorsDatabase } from '../src/db.ts';
import { sourceMaps } from '../src/sourcemaps/resolver.ts';

const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 2000);
const work = await mkdtemp(join(tmpdir(), 'sourcemap-bench-'));
const logger = createLogger({ service: 'bench', level: 'silent', format: 'json' });

// Enough functions that the map passes 1 MB; each has a body of a few lines.
const functions = Array.from(
  { length: 2600 },
  (_, i) => `export function step${i}(input: { total: number; items: string[] }): number {
  const scaled = input.items.map((item, index) => item.length * (index + ${i}));
  if (scaled.length > ${i % 7}) return scaled.reduce((a, b) => a + b, 0) / input.total;
  throw new Error('step ${i} failed for ' + input.items.join(','));
}`,
);
await writeFile(join(work, 'app.ts'), functions.join('\n'));
await build({
  entryPoints: [join(work, 'app.ts')],
  outfile: join(work, 'app.js'),
  bundle: true,
  minify: true,
  sourcemap: true,
  format: 'esm',
  logLevel: 'silent',
});
const minified = await readFile(join(work, 'app.js'), 'utf8');
const map = await readFile(join(work, 'app.js.map'));
const debugId = '0b6f7bd2-8c3e-4a8e-9f0e-2f1d7e7a6c11';
const manifest = {
  files: {
    '_/_/app.js': {
      url: '~/app.js',
      type: 'minified_source',
      headers: { 'debug-id': debugId, Sourcemap: 'app.js.map' },
    },
    '_/_/app.js.map': { url: '~/app.js.map', type: 'source_map', headers: { 'debug-id': debugId } },
  },
};
const zip = zipSync({
  'manifest.json': strToU8(JSON.stringify(manifest)),
  '_/_/app.js': strToU8(minified),
  '_/_/app.js.map': map,
});

const config = readConfig({ DATA_DIR: 'memory://' });
const db = await openErrorsDatabase(config, 'apply');
await db.sql.query(`INSERT INTO projects (name, slug, dsn_key) VALUES ('p', 'p', '${'a'.repeat(32)}')`);
const [project] = await db.sql.query<{ id: number }>('SELECT id FROM projects');
const { store, resolver } = sourceMaps(db, config, logger);
await store.store([project?.id as number], zip, null, null);

// Five frames at real positions of the minified line (each a "throw" of a different function).
const columns = [...minified.matchAll(/throw /g)].map((m) => m.index + 1);
const lines = minified.split('\n');
const line = lines.findIndex((l) => l.includes('throw ')) + 1;
const lineStart = lines.slice(0, line - 1).reduce((n, l) => n + l.length + 1, 0);
const event = () => ({
  exception: {
    values: [
      {
        type: 'Error',
        value: 'x',
        stacktrace: {
          frames: [0, 400, 800, 1200, 1600].map((i) => ({
            filename: '/srv/app.js',
            function: 'a',
            lineno: line,
            colno: (columns[i] as number) - lineStart,
            in_app: true,
          })),
        },
      },
    ],
  },
  debug_meta: { images: [{ type: 'sourcemap', code_file: '/srv/app.js', debug_id: debugId }] },
});
const first = event();
await resolver.resolve(first, project?.id as number); // loads and parses the map: not timed
const times: number[] = [];
for (let i = 0; i < ITERATIONS; i++) {
  const e = event();
  const start = performance.now();
  await resolver.resolve(e, project?.id as number);
  times.push(performance.now() - start);
}
const at = (p: number) => percentile(times, p).toFixed(3);
const top = first.exception.values[0]?.stacktrace.frames[0] as Record<string, unknown>;
console.log(`map ${(map.length / 1e6).toFixed(2)} MB; top frame ${top.filename}:${top.lineno} in ${top.function}`);
console.log(
  `resolve a 5-frame stack, map cached, ${ITERATIONS} times: p50 ${at(50)} ms, p95 ${at(95)} ms, p99 ${at(99)} ms`,
);
await db.close();
await rm(work, { recursive: true, force: true });
