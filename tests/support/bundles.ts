/**
 * Vitest global setup: bundles each app's entry points (scripts/build/bundle.ts, as the images are
 * built), and the tests start those bundles as processes instead of the TypeScript sources through
 * tsx (processes.ts). A process then starts as production starts it, and without loading a compiler
 * and every source file through tsx's loader: about 1-2 s less CPU per process, and the suite
 * starts about sixty.
 *
 * The bundles lie inside the repository (node_modules/.cache), so the packages they leave out
 * resolve from its node_modules. They are kept under a key made from the sources' paths, sizes and
 * modification times, so later runs over the same sources (CI runs the suite more than once) reuse
 * them; bundles of other sources are removed once a day old.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { APPS, bundleApp } from '../../scripts/build/bundle.ts';
import { BUNDLES_ENV, ROOT } from './processes.ts';

const SOURCES = ['apps', 'packages', 'proto', 'prisma', 'scripts/build', 'package-lock.json'];
const SKIP = new Set(['node_modules', 'test', 'bench', 'data', 'dist', 'coverage']);
const DAY_MS = 86_400_000;

/** A hash of every source file's path, size and modification time. */
function sourcesKey(): string {
  const hash = createHash('sha256');
  const walk = (path: string) => {
    const stat = statSync(path);
    if (!stat.isDirectory()) {
      hash.update(`${path}\0${stat.size}\0${stat.mtimeMs}\n`);
      return;
    }
    for (const name of readdirSync(path).sort()) if (!SKIP.has(name)) walk(join(path, name));
  };
  for (const source of SOURCES) walk(join(ROOT, source));
  return hash.digest('hex').slice(0, 16);
}

async function build(dir: string): Promise<void> {
  const partial = `${dir}.${process.pid}`;
  const log = console.log;
  console.log = () => {}; // bundleApp says what each bundle holds; the test output does not need it
  try {
    await Promise.all(Object.keys(APPS).map((app) => bundleApp(app, partial, { forTests: true })));
  } finally {
    console.log = log;
  }
  // Whole or not at all: a run that stops half way leaves only its partial folder.
  if (existsSync(dir)) rmSync(partial, { recursive: true, force: true });
  else renameSync(partial, dir);
}

export default async function setup(): Promise<void> {
  const cache = join(ROOT, 'node_modules', '.cache', 'trove-test-bundles');
  mkdirSync(cache, { recursive: true });
  const dir = join(cache, sourcesKey());
  if (!existsSync(dir)) await build(dir);
  for (const name of readdirSync(cache)) {
    const other = join(cache, name);
    if (other !== dir && Date.now() - statSync(other).mtimeMs > DAY_MS) rmSync(other, { recursive: true, force: true });
  }
  // Test workers inherit the environment of the process that starts them.
  process.env[BUNDLES_ENV] = dir;
}
