/**
 * The values tables of charts/trove/README.md, made from values.yaml (each key's default and the
 * `# --` comment above it) and values.schema.json (each key's type), so that the README cannot
 * drift from either. They sit between `<!-- values:begin -->` and `<!-- values:end -->`;
 * `npm run chart:check` fails when they differ from what this makes, when a key has no description
 * or a documented key is not in the schema, and `-- --write` rewrites them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isMap, isScalar, isSeq, type Node, type Pair, parseDocument, type YAMLMap } from 'yaml';

const CHART = join(import.meta.dirname, '../../charts/trove');
export const README = join(CHART, 'README.md');
const BEGIN = '<!-- values:begin -->';
const END = '<!-- values:end -->';
/** Values handed whole to Kubernetes or to a dependency chart: one row each, not one per field. */
const WHOLE = new Set(['podSecurityContext', 'containerSecurityContext', 'postgresql.primary', 'migrations.resources']);
/** Dependency charts take more values than the schema names (their own). */
const DEPENDENCIES = /^(postgresql|redis|qdrant)\./;

// biome-ignore lint/suspicious/noExplicitAny: JSON schema fragments, read as written
type Schema = any;

function described(comment: string | null | undefined): string | undefined {
  const text = comment
    ?.split('\n')
    .map((line) => line.trim())
    .join(' ')
    .trim();
  return text?.startsWith('--') ? text.slice(2).trim() : undefined;
}

function deref(root: Schema, node: Schema): Schema {
  let out = node;
  while (out?.$ref) out = root.definitions[out.$ref.replace('#/definitions/', '')];
  return out;
}

function schemaAt(root: Schema, path: string[]): Schema | undefined {
  let node: Schema = root;
  for (const key of path) {
    node = deref(root, deref(root, node)?.properties?.[key]);
    if (!node) return undefined;
  }
  return node;
}

function typeOf(schema: Schema | undefined, value: unknown): string {
  if (!schema) return Array.isArray(value) ? 'list' : value === null ? 'null' : typeof value;
  if (schema.enum) return schema.enum.map((v: unknown) => JSON.stringify(v)).join(' \\| ');
  if (schema.oneOf) return schema.oneOf.map((s: Schema) => typeOf(s, value)).join(' or ');
  const t = [schema.type ?? 'object'].flat().join(' or ');
  return t === 'array'
    ? 'list'
    : t === 'object' && schema.additionalProperties?.type === 'string'
      ? 'map of strings'
      : t;
}

function shown(value: unknown): string {
  const json = JSON.stringify(value) ?? '';
  const text = json.length > 70 ? 'see values.yaml' : json.replace(/^"(.*)"$/, '$1') === '' ? '""' : json;
  return `\`${text.replaceAll('|', '\\|')}\``;
}

const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');

interface Made {
  tables: string;
  problems: string[];
}

/** The generated tables, and what keeps them from documenting every value. */
export function valuesTables(): Made {
  const doc = parseDocument(readFileSync(join(CHART, 'values.yaml'), 'utf8'));
  const schema = JSON.parse(readFileSync(join(CHART, 'values.schema.json'), 'utf8')) as Schema;
  const problems: string[] = [];
  const rows: string[] = [];

  const walk = (map: YAMLMap, path: string[]) => {
    map.items.forEach((item: Pair, i) => {
      const key = String(isScalar(item.key) ? item.key.value : item.key);
      const here = [...path, key];
      const name = here.join('.');
      if (name === 'components') return;
      const value = item.value as Node | null;
      // The comment above a map's first key is the map's own in the parsed document.
      const text = described((item.key as Node).commentBefore) ?? (i === 0 ? described(map.commentBefore) : undefined);
      const whole = WHOLE.has(name) || !isMap(value) || value.flow === true || value.items.length === 0;
      if (!whole) {
        if (text) (value as YAMLMap).commentBefore = `-- ${text}`;
        walk(value as YAMLMap, here);
        return;
      }
      const node = schemaAt(schema, here);
      if (!node && !DEPENDENCIES.test(name)) problems.push(`values.yaml: ${name} is not in values.schema.json`);
      if (!text) problems.push(`values.yaml: ${name} has no "# --" description`);
      const plain = isMap(value) || isSeq(value) ? value.toJSON() : isScalar(value) ? value.value : value;
      rows.push(`| \`${name}\` | ${typeOf(node, plain)} | ${shown(plain)} | ${cell(text ?? '')} |`);
    });
  };
  walk(doc.contents as YAMLMap, []);

  // Components: their fields (from the comment above `components`), then each one's defaults.
  const components = (doc.contents as YAMLMap).items.find((p) => isScalar(p.key) && p.key.value === 'components');
  if (!components || !isMap(components.value)) return { tables: '', problems: ['values.yaml: no components'] };
  const fields = new Map<string, string>();
  let last: string[] = [];
  for (const line of String((components.key as Node).commentBefore).split('\n')) {
    const entry = /^ {4}([a-zA-Z][\w, ]*?)(?: {2,}|: )(.+)$/.exec(line);
    const more = /^ {6,}(\S.*)$/.exec(line);
    if (entry) {
      last = (entry[1] as string).split(', ');
      for (const f of last) fields.set(f, (entry[2] as string).trim());
    } else if (more) for (const f of last) fields.set(f, `${fields.get(f)} ${(more[1] as string).trim()}`);
  }
  const component = schema.definitions.component.properties as Record<string, Schema>;
  for (const f of Object.keys(component))
    if (!fields.has(f)) problems.push(`values.yaml: component field ${f} is not described above components`);
  for (const f of fields.keys())
    if (!component[f]) problems.push(`values.yaml: component field ${f} is not in values.schema.json`);
  const fieldRows = [...fields].map(
    ([f, text]) => `| \`${f}\` | ${typeOf(deref(schema, component[f]), undefined)} | ${cell(text)} |`,
  );

  const defaults = components.value.toJSON() as Record<string, Schema>;
  const defaultRows = Object.entries(defaults).map(([key, c]) => {
    const probe = c.startupProbe?.enabled
      ? `${c.startupProbe.failureThreshold * c.startupProbe.periodSeconds} s`
      : 'off';
    const requests = c.resources?.requests ?? {};
    return `| \`${key}\` | trove-${c.image} | ${c.port} | ${c.grpcPort ?? ''} | ${c.replicas} | ${requests.cpu ?? ''} / ${requests.memory ?? ''} | ${c.resources?.limits?.memory ?? ''} | ${probe} | ${c.terminationGracePeriodSeconds ?? 30} s |`;
  });

  const tables = [
    '| key | type | default | description |',
    '| --- | --- | --- | --- |',
    ...rows,
    '',
    'Every component under `components.<name>` has these fields:',
    '',
    '| field | type | meaning |',
    '| --- | --- | --- |',
    ...fieldRows,
    '',
    'Their defaults (requests and limits from the measurements written beside them in `values.yaml`):',
    '',
    '| component | image | port | gRPC port | replicas | requests (CPU / memory) | memory limit | start-up allowance | drain on SIGTERM |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...defaultRows,
  ].join('\n');
  return { tables, problems };
}

/** The README with its tables replaced by `tables`; undefined when it lacks the markers. */
export function withTables(readme: string, tables: string): string | undefined {
  const begin = readme.indexOf(BEGIN);
  const end = readme.indexOf(END);
  if (begin < 0 || end < begin) return undefined;
  return `${readme.slice(0, begin + BEGIN.length)}\n${tables}\n${readme.slice(end)}`;
}
