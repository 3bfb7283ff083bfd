import type { CatalogRoute } from '@trove/service-kit';
import fc from 'fast-check';
import { anyValue, hostileString } from './hostile.ts';
import { type JsonSchema, type ShapeOptions, shapedBy } from './schema-arbitrary.ts';

export interface FuzzRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
  /** What was done to the body, for the failure report. */
  body: string;
}

const PARAM = /:(\w+)|\*/g;

/** Ways a serialized JSON body is broken on purpose. */
function malformedBodies(json: string): fc.Arbitrary<{ payload: string | Buffer; how: string; type?: string }> {
  const firstKey = /^\{"((?:[^"\\]|\\.)*)":/.exec(json)?.[1];
  return fc.oneof(
    fc.nat({ max: Math.max(0, json.length - 1) }).map((n) => ({ payload: json.slice(0, n), how: `truncated at ${n}` })),
    fc.constant({ payload: '', how: 'empty' }),
    fc.uint8Array({ maxLength: 64 }).map((b) => ({ payload: Buffer.from(b), how: 'random bytes' })),
    fc.tuple(fc.nat({ max: Math.max(0, json.length - 1) }), fc.integer({ min: 1, max: 255 })).map(([at, xor]) => {
      const bytes = Buffer.from(json);
      if (bytes.length > 0) bytes[at % bytes.length] = (bytes[at % bytes.length] ?? 0) ^ xor;
      return { payload: bytes, how: `bit flip at ${at}` };
    }),
    // Duplicated keys: JSON.parse keeps the last one, a validator might have seen the first.
    anyValue.map((v) => ({
      payload:
        firstKey && json.startsWith('{')
          ? `{"${firstKey}":${JSON.stringify(v) ?? 'null'},${json.slice(1)}`
          : `${json}${json}`,
      how: 'duplicated key',
    })),
    fc.constant({
      payload: `{"__proto__":{"polluted":true},${json.startsWith('{') ? json.slice(1) : '"x":1}'}`,
      how: 'prototype key',
    }),
    fc.constant({ payload: json, how: 'as text/plain', type: 'text/plain' }),
    fc.constant({ payload: json, how: 'as form data', type: 'application/x-www-form-urlencoded' }),
  );
}

/**
 * Percent-encodes anything, lone surrogates included (encodeURIComponent throws on them): they go
 * out as the three bytes a careless encoder would write, which are not valid UTF-8.
 */
export function encodeHostile(text: string): string {
  let out = '';
  for (const ch of text) {
    const c = ch.codePointAt(0) ?? 0;
    if (c >= 0xd800 && c <= 0xdfff) {
      out += [0xe0 | (c >> 12), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f)]
        .map((b) => `%${b.toString(16).toUpperCase()}`)
        .join('');
    } else out += encodeURIComponent(ch);
  }
  return out;
}

function pathOf(url: string, values: string[]): string {
  let i = 0;
  return url.replace(PARAM, () => encodeHostile(values[i++] ?? ''));
}

function queryOf(values: [string, unknown][]): string {
  const pairs: string[] = [];
  for (const [key, value] of values) {
    // An array repeats the parameter (?tag=a&tag=b), which parsers turn into an array.
    for (const v of Array.isArray(value) ? value : [value]) {
      const text = typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v);
      pairs.push(`${encodeHostile(key)}=${encodeHostile(text)}`);
    }
  }
  return pairs.length > 0 ? `?${pairs.join('&')}` : '';
}

/**
 * Requests for one route, generated from its own schemas: path parameters, query string and JSON
 * body shaped like the schema says, filled with hostile values; and one time in four a body that
 * is not well-formed JSON at all.
 */
export function requestsFor(route: CatalogRoute, options: ShapeOptions): fc.Arbitrary<FuzzRequest> {
  const paramCount = route.url.match(PARAM)?.length ?? 0;
  const params = fc.array(fc.oneof(options.known, hostileString(5_000)), {
    minLength: paramCount,
    maxLength: paramCount,
  });
  const querySchema = route.schema.querystring as JsonSchema | undefined;
  const queryProps = Object.entries(querySchema?.properties ?? {});
  const query = fc
    .tuple(
      fc.tuple(
        ...queryProps.map(([name, schema]) =>
          fc.option(shapedBy(schema, options)).map((v) => [name, v] as [string, unknown]),
        ),
      ),
      fc.array(fc.tuple(hostileString(100), anyValue), { maxLength: 2 }),
    )
    .map(([declared, extra]) => [...declared.filter(([, v]) => v !== null), ...extra]);
  const hasBody = !['GET', 'HEAD', 'DELETE', 'OPTIONS'].includes(route.method) || route.schema.body !== undefined;
  const body = hasBody ? shapedBy(route.schema.body as JsonSchema | undefined, options) : fc.constant(undefined);
  return fc.tuple(params, query, body).chain(([pathValues, queryValues, value]): fc.Arbitrary<FuzzRequest> => {
    const url = pathOf(route.url, pathValues) + queryOf(queryValues);
    if (value === undefined) return fc.constant<FuzzRequest>({ method: route.method, url, headers: {}, body: 'none' });
    const json = JSON.stringify(value) ?? 'null';
    const wellFormed = fc.constant({
      payload: json as string | Buffer,
      how: 'json' as string,
      type: undefined as string | undefined,
    });
    return fc
      .oneof({ weight: 3, arbitrary: wellFormed }, { weight: 1, arbitrary: malformedBodies(json) })
      .map(({ payload, how, type }) => ({
        method: route.method,
        url,
        headers: { 'content-type': type ?? 'application/json' },
        payload,
        body: `${how}: ${String(payload).slice(0, 300)}`,
      }));
  });
}
