import { unknownFieldMessage } from '@trove/service-kit';
import type { FastifyInstance, FastifySchemaValidationError } from 'fastify';
import { invalidTypeMessage } from '../memories/memory-types.ts';

/**
 * How memory-api words a request that fails its schema. The checks themselves are the service
 * kit's, as in every app: a JSON body keeps its types (no coercion: `"limit":"5"` is a 400), a
 * query string is text and is read as the number, boolean or list its schema names; a field the
 * schema does not name is a 400 naming it; `verbose` keeps the schema and value on each error, so
 * the message can say what was expected and what was sent.
 */

/** Names a memory-api user may bring from other memory stores; here a namespace scopes memories. */
const SCOPING_FIELDS = new Set(['user_id', 'agent_id', 'run_id']);

type AjvError = FastifySchemaValidationError & {
  data?: unknown;
  parentSchema?: {
    properties?: Record<string, unknown>;
    enum?: unknown[];
    type?: string;
    minimum?: number;
    maximum?: number;
    maxLength?: number;
  };
};

const article = (type: string) => (/^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`);
const kindOf = (value: unknown) =>
  value === null ? 'null' : Array.isArray(value) ? 'array' : Number.isInteger(value) ? 'integer' : typeof value;

/** One readable sentence per failure, naming the field as `body.tags[0]`. */
export function describeValidationError(error: AjvError, dataVar: string): string {
  const at = error.instancePath.replace(/\/(\d+)(?=\/|$)/g, '[$1]').replace(/\//g, '.');
  const path = `${dataVar}${at}`;
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'additionalProperties': {
      const field = String(params.additionalProperty);
      if (SCOPING_FIELDS.has(field))
        return `${path}.${field} is not a field of this request; memories are scoped by namespace: send "namespace" instead`;
      return unknownFieldMessage(dataVar, at, field, Object.keys(error.parentSchema?.properties ?? {}));
    }
    case 'required':
      return `${path}.${String(params.missingProperty)} is required`;
    case 'type': {
      const expected = String(params.type).split(',').map(article).join(' or ');
      return `${path} must be ${expected}, not ${article(kindOf(error.data))}`;
    }
    case 'enum':
      // The memory type keeps the wording /remember has always answered (the spec asks for the list).
      if (/\.(type|memory_type)$/.test(path)) return invalidTypeMessage(error.data);
      return `${path} ${JSON.stringify(error.data)} is not valid; valid values: ${(params.allowedValues as unknown[]).join(', ')}`;
    case 'minimum':
    case 'maximum': {
      // A range reads as one sentence whichever end was missed: "from 1 to 100", "from 0.0 to 1.0".
      const { type, minimum, maximum } = error.parentSchema ?? {};
      const whole = type === 'integer';
      const show = (n: number) => (whole || !Number.isInteger(n) ? String(n) : n.toFixed(1));
      const what = whole ? 'a whole number' : 'a number';
      if (minimum !== undefined && maximum !== undefined)
        return `${path} must be ${what} from ${show(minimum)} to ${show(maximum)}`;
      const bound = (error.keyword === 'minimum' ? minimum : maximum) as number;
      return `${path} must be ${what} ${error.keyword === 'minimum' ? 'of at least' : 'of at most'} ${show(bound)}`;
    }
    case 'format':
      return params.format === 'uuid'
        ? `${path} must be an id (a UUID)`
        : params.format === 'date-time'
          ? `${path} must be an RFC 3339 timestamp, e.g. 2026-01-31T12:00:00Z`
          : `${path} must be ${String(params.format)}`;
    default:
      return `${path} ${error.message ?? 'is not valid'}`;
  }
}

/**
 * Installs the wording above on every route registered after it (called by the app before its
 * routes). A request without a body is read as an empty object: a POST with nothing to say, or a
 * DELETE that names its target in the query, then passes its schema, and one that leaves out a
 * required field hears which.
 */
export function useStrictValidation(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    if (request.body === undefined && request.routeOptions.schema?.body) request.body = {};
  });
  app.setSchemaErrorFormatter((errors, dataVar) => {
    const first = errors[0] as AjvError | undefined;
    return new Error(first ? describeValidationError(first, dataVar) : `${dataVar} is not valid`);
  });
}
