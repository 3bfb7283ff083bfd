import { Type } from 'typebox';
import { Id, Limit, Strict } from '../../schemas/fields.ts';

/** `?id=&limit=` of /timeline and /provenance. */
export const idLimitQuery = Strict({ id: Type.Optional(Id), limit: Limit });
