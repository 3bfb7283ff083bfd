/**
 * Keeps the configuration documentation in step with the config schemas:
 *   npm run docs:config          rewrites each app's .env.example and the README tables
 *   npm run docs:config -- --check   fails if any of them is out of date (CI)
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { configTable, type EnvSchema, envExample } from '@trove/service-kit';
import { configSchema as embedderSchema } from '../apps/embedder/src/config.ts';
import { configSchema as errorsSchema } from '../apps/errors-api/src/config.ts';
import { configSchema as memorySchema } from '../apps/memory-api/src/config.ts';
import { configSchema as vectorizeSchema } from '../apps/vectorize-api/src/config.ts';
import { configSchema as vectorizerWorkerSchema } from '../apps/vectorizer-worker/src/config.ts';
import { ROOT } from './prisma-tools.ts';

export const SCHEMAS: Record<string, EnvSchema> = {
  'memory-api': memorySchema,
  'vectorize-api': vectorizeSchema,
  'errors-api': errorsSchema,
  embedder: embedderSchema,
  'vectorizer-worker': vectorizerWorkerSchema,
};

/** Apps whose table lives in their own README rather than the repository's. */
const OWN_README: Record<string, string> = {
  embedder: 'apps/embedder/README.md',
  'vectorizer-worker': 'apps/vectorizer-worker/README.md',
};

/** The files as they should be: path -> content. */
export async function expectedDocs(): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  const readmes = new Map<string, string>();
  for (const [app, schema] of Object.entries(SCHEMAS)) {
    files.set(
      join(ROOT, 'apps', app, '.env.example'),
      `# ${app}: every variable it reads, at its default.\n\n${envExample(schema)}`,
    );
    const readmePath = join(ROOT, OWN_README[app] ?? 'README.md');
    const readme = readmes.get(readmePath) ?? (await readFile(readmePath, 'utf8'));
    const start = `<!-- config:${app} -->`;
    const end = `<!-- /config:${app} -->`;
    const from = readme.indexOf(start);
    const to = readme.indexOf(end);
    if (from < 0 || to < from) throw new Error(`${readmePath} lacks the markers ${start} ... ${end}`);
    readmes.set(readmePath, `${readme.slice(0, from + start.length)}\n${configTable(schema)}\n${readme.slice(to)}`);
  }
  for (const [path, content] of readmes) files.set(path, content);
  return files;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const check = process.argv.includes('--check');
  const stale: string[] = [];
  for (const [path, content] of await expectedDocs()) {
    const current = await readFile(path, 'utf8').catch(() => '');
    if (current === content) continue;
    if (check) stale.push(path);
    else await writeFile(path, content);
  }
  if (stale.length > 0) {
    console.error(`out of date (run npm run docs:config): ${stale.join(', ')}`);
    process.exit(1);
  }
  console.log(check ? 'configuration docs are current' : 'configuration docs written');
}
