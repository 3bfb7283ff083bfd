import { AjvCompiler } from '@fastify/ajv-compiler';
import type { FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import { badRequest } from './errors.ts';

type AjvOptions = { customOptions?: Record<string, unknown> } & Record<string, unknown>;

/**
 * Request validation without silent changes. Fastify's default Ajv coerces types everywhere
 * (`{"query": 42}` passed a `type: string` schema as `"42"`). A JSON body already carries its
 * types, so a body that has the wrong one is refused; query strings, path parameters and headers
 * only ever hold text, so they are still read as the number or boolean their schema names.
 * Fastify's default also drops a field that a schema with `additionalProperties: false` does not
 * name, so a typo (`"slugg"`, `?downlaod=1`) was silently ignored; it is a 400 naming the field
 * (describeSchemaErrors words it; `verbose` keeps the schema on the error to list the accepted ones).
 */
export function strictRequestValidation(): NonNullable<FastifyServerOptions['schemaController']> {
  const build = AjvCompiler();
  return {
    compilersFactory: {
      buildValidator: (externalSchemas: unknown, options: AjvOptions = {}) => {
        const strict = { ...options.customOptions, removeAdditional: false, verbose: true };
        const textParts = build(externalSchemas as never, { ...options, customOptions: strict } as never);
        const body = build(
          externalSchemas as never,
          { ...options, customOptions: { ...strict, coerceTypes: false } } as never,
        );
        return (route: { httpPart?: string }) =>
          route.httpPart === 'body' ? body(route as never) : textParts(route as never);
      },
    },
  } as NonNullable<FastifyServerOptions['schemaController']>;
}

type SchemaError = {
  keyword: string;
  instancePath: string;
  message?: string;
  params: { additionalProperty?: string };
  parentSchema?: { properties?: object };
};

/**
 * Fastify's wording ("body/limit must be <= 100", made dotted by errors.ts), except for a field the
 * schema does not name, where Ajv says only "must NOT have additional properties": "querystring.downlaod
 * is not a field of this request; accepted fields: format, download". An app may set its own.
 */
export function describeSchemaErrors(errors: readonly SchemaError[], dataVar: string): Error {
  const first = errors[0];
  if (first?.keyword === 'additionalProperties') {
    const known = Object.keys(first.parentSchema?.properties ?? {});
    const at = first.instancePath.replace(/\//g, '.');
    return new Error(unknownFieldMessage(dataVar, at, String(first.params.additionalProperty), known));
  }
  return new Error(errors.map((e) => `${dataVar}${e.instancePath} ${e.message ?? 'is not valid'}`).join(', '));
}

/**
 * The one wording of a field a schema does not name (apps with their own error wording use it
 * too): `part` is body or querystring, `at` where in it ('' or '.tags'), `known` the fields the
 * schema names there.
 */
export function unknownFieldMessage(part: string, at: string, field: string, known: readonly string[]): string {
  const hint =
    known.length > 0
      ? `accepted fields: ${known.join(', ')}`
      : at
        ? `${part}${at} takes no fields`
        : 'this request takes no fields';
  return `${part}${at}.${field} is not a field of this request; ${hint}`;
}

// A UTF-16 code unit that is half of a surrogate pair without its other half.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why a string cannot be stored as Postgres text (or jsonb) unchanged; undefined when it can. */
export function unstorableText(text: string): string | undefined {
  if (text.includes('\0')) return 'must not contain NUL characters (U+0000)';
  // Encoded as UTF-8 a lone surrogate would silently turn into U+FFFD.
  if (LONE_SURROGATE.test(text)) return 'must be valid Unicode text (it contains an unpaired surrogate)';
  return undefined;
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
const childPath = (path: string, key: string | number) =>
  typeof key === 'number'
    ? `${path}[${key}]`
    : IDENTIFIER.test(key)
      ? `${path}.${key}`
      : `${path}[${JSON.stringify(key)}]`;

// Parsed JSON and query strings are plain objects; anything else (Buffers, multipart parts,
// streams) is not text a client typed and may hold cycles.
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * The first string (value or key) in parsed JSON that Postgres text cannot hold, as a message
 * naming its path, e.g. `body.content must not contain NUL characters (U+0000)`. Iterative, so a
 * deeply nested body cannot overflow the stack; each object is visited once.
 */
export function findUnstorableText(value: unknown, root: string): string | undefined {
  const stack: [unknown, string][] = [[value, root]];
  const seen = new Set<object>();
  while (stack.length > 0) {
    const [current, path] = stack.pop() as [unknown, string];
    if (typeof current === 'object' && current !== null) {
      if (seen.has(current)) continue;
      seen.add(current);
    }
    if (typeof current === 'string') {
      const problem = unstorableText(current);
      if (problem) return `${path} ${problem}`;
    } else if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) stack.push([current[i], childPath(path, i)]);
    } else if (isPlainObject(current)) {
      const keys = Object.keys(current);
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i] as string;
        const keyProblem = unstorableText(key);
        if (keyProblem) return `${path} has a key that ${keyProblem}`;
        stack.push([current[key], childPath(path, key)]);
      }
    }
  }
  return undefined;
}

/**
 * Refuses a request whose path parameters or query string hold text Postgres cannot store: a 400
 * naming the field instead of a 500 from the database. Runs first (onRequest), since routes look
 * things up by path parameter in their own early hooks.
 */
export async function refuseUnstorableAddress(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
  // Fastify's params and query objects have prototypes of their own: spread them into plain ones.
  const problem =
    findUnstorableText({ ...(request.params as object) }, 'params') ??
    findUnstorableText({ ...(request.query as object) }, 'querystring');
  if (problem) throw badRequest(problem);
}

/**
 * The same for a parsed JSON body, before any schema or handler sees it. Raw bodies (text,
 * Buffers such as errors-api ingest, which cleans events itself, multipart uploads) are left to
 * their routes.
 */
export async function refuseUnstorableBody(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
  const problem = typeof request.body === 'object' ? findUnstorableText(request.body, 'body') : undefined;
  if (problem) throw badRequest(problem);
}
