import { Type } from 'typebox';
import { TIMELINE_MAX_LIMIT } from '../../graph/provenance.ts';
import { Id, Limit, Strict } from '../../schemas/fields.ts';

/** `?id=&limit=` of /timeline and /provenance. */
export const idLimitQuery = Strict({ id: Type.Optional(Id), limit: Limit(TIMELINE_MAX_LIMIT) });
