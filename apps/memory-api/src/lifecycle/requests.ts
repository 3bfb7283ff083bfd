import { Type } from 'typebox';
import { Fraction, Limit, Namespace, Offset, OptBool, OptInt, Strict } from '../schemas/fields.ts';

/** Request schemas of the lifecycle and maintenance routes. */
export const cycleBody = Strict({
  dry_run: OptBool(),
  namespace: Namespace,
  older_than_days: OptInt(),
  max_access_count: OptInt(),
  prune_expired: OptBool(),
  ttl_days: OptInt(),
});
export const promoteBody = Strict({ id: Type.String() });
export const deprecatedQuery = Strict({ namespace: Namespace, limit: Limit(1000), offset: Offset });
/** ImportanceRequest */
export const importanceBody = Strict({ namespace: Namespace });
/** PruneRequest */
export const pruneBody = Strict({ dry_run: OptBool(), namespace: Namespace, ttl_days: OptInt() });
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
  max_access_count: OptInt(),
  older_than_days: OptInt(),
});
/** OrphansRequest */
export const orphansBody = Strict({ limit: Limit(1000), namespace: Namespace, threshold: Fraction('most importance') });
