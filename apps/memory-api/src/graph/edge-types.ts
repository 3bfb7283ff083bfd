import { invalid } from '../domain-error.ts';

/** The type of an explicit edge when the request names none. */
export const DEFAULT_EDGE_TYPE = 'related_to';

/** Edge types are short snake_case words, so they read well in graph views and stay indexable. */
const EDGE_TYPE = /^[a-z][a-z0-9_]{0,63}$/;

/**
 * Types the service derives itself and that a caller must not forge: `superseded_by` is written by
 * `remember` with `detect_contradiction` and removed by `/contradictions/undo`; `referenced_by`
 * is the name of the derived backlinks.
 */
export const RESERVED_EDGE_TYPES = ['superseded_by', 'referenced_by'] as const;

export const SUPERSEDED_BY = 'superseded_by';

export function edgeType(value: unknown, field = 'edge_type'): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || !EDGE_TYPE.test(value))
    throw invalid(`${field} must be snake_case: a lowercase letter, then up to 63 of a-z, 0-9 or _`);
  return value;
}

/** An edge type a caller may create or delete through /graph/edge. */
export function writableEdgeType(value: unknown, field = 'edge_type'): string | undefined {
  const type = edgeType(value, field);
  if (type && (RESERVED_EDGE_TYPES as readonly string[]).includes(type))
    throw invalid(
      `${field} ${type} is managed by the service (supersession via /remember detect_contradiction and /contradictions/undo; backlinks are derived)`,
    );
  return type;
}

/** Edge weights lie in 0..1, like the similarities of auto-links, so graph recall can multiply by them. */
export function edgeWeight(value: unknown): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0 || value > 1)
    throw invalid('weight must be a number above 0.0 and at most 1.0');
  return value;
}
