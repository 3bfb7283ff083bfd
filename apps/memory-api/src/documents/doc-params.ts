import { invalid } from '../domain-error.ts';
import { isUuid, namespace, optionalString } from '../schemas/parse.ts';
import { DEFAULT_DOC_NAMESPACE, type DocumentRef } from './document-store.ts';
import { isSlug, parseSlug } from './slugs.ts';

export const DOC_CONTENT_MAX = 1_000_000;
export const DOC_TITLE_MAX = 500;

/**
 * A document named in a request: `id` (a UUID) or `slug` within `namespace` (default `default`).
 * When both are given the id decides.
 */
export function docRef(body: Record<string, unknown>, idField = 'id', slugField = 'slug'): DocumentRef {
  const ns = namespace(body.namespace) ?? DEFAULT_DOC_NAMESPACE;
  const id = body[idField];
  const slug = body[slugField];
  if (id !== undefined && id !== null) {
    if (!isUuid(id)) throw invalid(`${idField} must be a document id (a UUID)`);
    return { id: id.toLowerCase(), namespace: ns };
  }
  if (slug !== undefined && slug !== null) return { slug: parseSlug(slug, slugField), namespace: ns };
  throw invalid(`give the document's ${idField} or ${slugField}`);
}

/** A parent (or new parent) given as a document id or a slug of the same namespace; null means "no parent". */
export function parentRef(value: unknown, field: string, ns: string): DocumentRef | null | undefined {
  if (value === undefined) return undefined;
  if (value === null) return null;
  if (isUuid(value)) return { id: value.toLowerCase(), namespace: ns };
  if (isSlug(value)) return { slug: value, namespace: ns };
  throw invalid(`${field} must be a document id, a slug or null`);
}

export function docContent(value: unknown, field = 'content'): string {
  if (typeof value !== 'string' || value.trim() === '' || value.length > DOC_CONTENT_MAX) {
    throw invalid(`${field} must be a non-empty string of at most ${DOC_CONTENT_MAX} characters`);
  }
  return value;
}

export function docTitle(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (value === '') return '';
  return optionalString(value, 'title', DOC_TITLE_MAX);
}

export function sortOrder(value: unknown, field: string): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || Math.abs(value) > 1_000_000_000) {
    throw invalid(`${field} must be a whole number between -1000000000 and 1000000000`);
  }
  return value;
}
