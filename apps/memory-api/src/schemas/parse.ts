import { invalid } from '../domain-error.ts';

/**
 * Checks for the fields the spec leaves untyped ("unspecified"): the JSON schemas accept any JSON
 * there, and these turn wrong values into 400s that name the field.
 */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}

export function uuid(value: unknown, field = 'id'): string {
  if (!isUuid(value)) throw invalid(`${field} must be a memory id (a UUID)`);
  return value.toLowerCase();
}

export function timestamp(value: unknown, field: string): Date | undefined {
  if (value === undefined || value === null) return undefined;
  const date = typeof value === 'string' && RFC3339.test(value) ? new Date(value) : null;
  if (!date || Number.isNaN(date.getTime()))
    throw invalid(`${field} must be an RFC 3339 timestamp, e.g. 2026-01-31T12:00:00Z`);
  return date;
}

export function optionalString(value: unknown, field: string, max = 200): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || value.trim() === '' || value.length > max) {
    throw invalid(`${field} must be a non-empty string of at most ${max} characters`);
  }
  return value.trim();
}

export function namespace(value: unknown, field = 'namespace'): string | undefined {
  return optionalString(value, field, 200);
}

export function tagList(value: unknown, field = 'tags'): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || value.some((t) => typeof t !== 'string'))
    throw invalid(`${field} must be an array of strings`);
  const tags = [...new Set((value as string[]).map((t) => t.trim()).filter(Boolean))];
  if (tags.some((t) => t.length > 100)) throw invalid(`${field} entries must be at most 100 characters`);
  return tags;
}

export function limit(value: unknown, fallback: number, max: number, field = 'limit'): number {
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > max) {
    throw invalid(`${field} must be a whole number from 1 to ${max}`);
  }
  return value;
}
