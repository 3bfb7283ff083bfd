import fc from 'fast-check';
import { anyValue, edgeNumber, hostileString } from './hostile.ts';

/** The part of JSON Schema the three apps write their request schemas in. */
export interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  format?: string;
  pattern?: string;
}

export interface ShapeOptions {
  /** Strings worth sending where the schema takes a string: real ids, slugs, namespaces. */
  known: fc.Arbitrary<string>;
}

const wrongType = anyValue;

function stringOf(schema: JsonSchema, options: ShapeOptions): fc.Arbitrary<string> {
  const min = schema.minLength ?? 0;
  const max = Math.max(min, Math.min(schema.maxLength ?? 60, 60));
  return fc.oneof(
    { weight: 3, arbitrary: fc.string({ minLength: min, maxLength: max }) },
    { weight: 3, arbitrary: options.known },
    { weight: 4, arbitrary: hostileString((schema.maxLength ?? 100_000) + 1) },
  );
}

function numberOf(schema: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  const min = schema.minimum ?? -1_000;
  const max = schema.maximum ?? 1_000;
  const inRange = integer ? fc.integer({ min, max }) : fc.double({ min, max, noNaN: true });
  const edges = [min - 1, min, max, max + 1, integer ? min + 0.5 : min - 0.001];
  return fc.oneof(
    { weight: 3, arbitrary: inRange },
    { weight: 2, arbitrary: fc.constantFrom(...edges) },
    { weight: 2, arbitrary: edgeNumber },
  );
}

/**
 * Values shaped by a schema, with hostile contents: mostly the declared type (so requests reach
 * the handlers) carrying edge cases, sometimes another type, sometimes extra fields.
 */
export function shapedBy(schema: JsonSchema | undefined, options: ShapeOptions): fc.Arbitrary<unknown> {
  if (!schema || typeof schema !== 'object') return anyValue;
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return fc.oneof(...alternatives.map((s) => shapedBy(s, options)), wrongType);
  if (schema.const !== undefined)
    return fc.oneof({ weight: 3, arbitrary: fc.constant(schema.const) }, { weight: 1, arbitrary: wrongType });
  if (schema.enum)
    return fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom(...schema.enum) },
      { weight: 1, arbitrary: stringOf({}, options) },
      { weight: 1, arbitrary: wrongType },
    );
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  const ofType = ((): fc.Arbitrary<unknown> | undefined => {
    switch (type) {
      case 'string':
        return stringOf(schema, options);
      case 'integer':
      case 'number':
        return numberOf(schema, type === 'integer');
      case 'boolean':
        return fc.boolean();
      case 'array':
        return fc.array(shapedBy(schema.items, options), { maxLength: Math.min(schema.maxItems ?? 6, 6) });
      case 'object':
        return objectOf(schema, options);
      default:
        return undefined;
    }
  })();
  if (!ofType) return anyValue;
  return fc.oneof({ weight: 6, arbitrary: ofType }, { weight: 1, arbitrary: wrongType });
}

function objectOf(schema: JsonSchema, options: ShapeOptions): fc.Arbitrary<Record<string, unknown>> {
  const properties = schema.properties ?? {};
  const required = new Set(schema.required ?? []);
  const fields = Object.entries(properties).map(([name, sub]) =>
    fc
      .tuple(fc.double({ min: 0, max: 1, noNaN: true }), shapedBy(sub, options))
      // A required field is present 9 times in 10, an optional one half the time.
      .map(([p, value]) => ((required.has(name) ? p < 0.9 : p < 0.5) ? ([name, value] as const) : undefined)),
  );
  const extras = fc.oneof(
    { weight: 4, arbitrary: fc.constant<[string, unknown][]>([]) },
    { weight: 1, arbitrary: fc.array(fc.tuple(hostileString(200), anyValue), { maxLength: 3 }) },
  );
  return fc.tuple(fc.tuple(...fields), extras).map(([present, extra]) => {
    const object: Record<string, unknown> = {};
    for (const [key, value] of extra) if (key !== '__proto__') object[key] = value;
    for (const field of present) if (field) object[field[0]] = field[1];
    return object;
  });
}
