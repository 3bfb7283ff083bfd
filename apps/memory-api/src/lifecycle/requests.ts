import { Type } from 'typebox';
import { Fraction, Limit, Namespace, Offset, OptBool, Strict } from '../schemas/fields.ts';
import { MAX_ACCESS_BOUND, MAX_DAYS } from './scope.ts';

/** Request schemas of the lifecycle and maintenance routes. */
const Days = Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_DAYS }));
const MaxAccessCount = Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_ACCESS_BOUND }));

export const cycleBody = Strict({
  dry_run: OptBool(),
  namespace: Namespace,
  older_than_days: Days,
  max_access_count: MaxAccessCount,
  prune_expired: OptBool(),
  ttl_days: Days,
});
export const promoteBody = Strict({ id: Type.String() });
export const deprecatedQuery = Strict({ namespace: Namespace, limit: Limit(1000), offset: Offset });
/** ImportanceRequest */
export const importanceBody = Strict({ namespace: Namespace });
/** PruneRequest */
export const pruneBody = Strict({ dry_run: OptBool(), namespace: Namespace, ttl_days: Days });
/** ConsolidateRequest */
export const consolidateBody = Strict({
  dry_run: OptBool(),
  namespace: Namespace,
  threshold: Fraction('merge threshold'),
});
/** ConsolidatePairRequest */
export const consolidatePairBody = Strict({
  id_keep: Type.String(),
  id_remove: Type.String(),
  hard_delete: OptBool(),
});
/** AgingRequest */
export const agingBody = Strict({
  action: Type.Optional(Type.String()),
  dry_run: OptBool(),
  namespace: Namespace,
  max_access_count: MaxAccessCount,
  older_than_days: Days,
});
/** OrphansRequest */
export const orphansBody = Strict({ limit: Limit(1000), namespace: Namespace, threshold: Fraction('most importance') });
