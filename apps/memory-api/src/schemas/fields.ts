import { type TProperties, Type } from 'typebox';
import { MEMORY_TYPES } from '../memories/memory-types.ts';

/**
 * The building blocks of every request schema (TypeBox, so one object is the validator, the
 * handler's type, the OpenAPI entry and the MCP tool's input). A request object names all its
 * fields: any other is a 400 naming it (see validation.ts).
 */
export const Strict = <T extends TProperties>(properties: T) =>
  Type.Object(properties, { additionalProperties: false });

/**
 * The largest `offset` accepted by every listing. The spec sets none; without one a number past
 * Postgres's bigint reached the database and answered 500. Nobody pages two billion rows deep.
 */
export const OFFSET_MAX = 2_147_483_647;
export const Offset = Type.Optional(Type.Integer({ minimum: 0, maximum: OFFSET_MAX }));

const opt = Type.Optional;
export const Text = (description?: string) => Type.String(description ? { description } : {});
export const OptText = (description?: string) => opt(Text(description));
export const OptInt = (description?: string) => opt(Type.Integer(description ? { description } : {}));
export const OptBool = (description?: string) => opt(Type.Boolean(description ? { description } : {}));
export const Tags = opt(Type.Array(Type.String(), { description: 'tags (strings)' }));
export const Metadata = opt(Type.Record(Type.String(), Type.Unknown(), { description: 'a JSON object' }));
export const Namespace = OptText('namespace; omitted means "default" for writes and every namespace for reads');
export const Fraction = (description: string) =>
  opt(Type.Number({ minimum: 0, maximum: 1, description: `${description} (0.0 to 1.0)` }));
export const Timestamp = (description: string) => OptText(`${description}: an RFC 3339 timestamp`);
export const MemoryType = Type.Enum([...MEMORY_TYPES], { description: 'the memory type' });
export const Id = Text('memory id (a UUID)');
export const MemoryIds = (description: string) =>
  opt(Type.Array(Type.String({ format: 'uuid' }), { description: `${description} (UUIDs)` }));
/** How many at most, from 1 to `max`; a route that is given none takes its own default. */
export const Limit = (max: number, description = 'how many at most') =>
  opt(Type.Integer({ minimum: 1, maximum: max, description: `${description} (1 to ${max})` }));
