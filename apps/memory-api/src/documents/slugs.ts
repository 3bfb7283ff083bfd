import { invalid } from '../domain-error.ts';

/**
 * A slug names a document within its namespace: letters, digits and `. _ / -`, starting with a
 * letter or digit, at most 200 characters. Slashes let callers mirror a path ("guides/setup").
 */
const SLUG = /^[A-Za-z0-9][A-Za-z0-9._/-]{0,199}$/;

export function isSlug(value: unknown): value is string {
  return typeof value === 'string' && SLUG.test(value);
}

export function parseSlug(value: unknown, field = 'slug'): string {
  if (!isSlug(value)) {
    throw invalid(
      `${field} must be 1 to 200 characters of letters, digits, '.', '_', '/' or '-', starting with a letter or digit`,
    );
  }
  return value;
}

// `[[slug]]` (wiki style) or `doc:slug` (not glued to a preceding word, so "mydoc:x" is no mention).
const WIKI_MENTION = /\[\[([A-Za-z0-9][A-Za-z0-9._/-]{0,199})\]\]/g;
const PREFIX_MENTION = /(?<![A-Za-z0-9_])doc:([A-Za-z0-9][A-Za-z0-9._/-]{0,199})/g;

/**
 * The slugs a memory's content mentions, sorted and unique. A sentence may end right after a
 * `doc:slug`, so trailing punctuation that a slug may contain (`.`, `/`, `-`, `_`) is dropped.
 */
export function mentionedSlugs(content: string): string[] {
  const found = new Set<string>();
  for (const m of content.matchAll(WIKI_MENTION)) found.add(m[1] as string);
  for (const m of content.matchAll(PREFIX_MENTION)) {
    const slug = (m[1] as string).replace(/[._/-]+$/, '');
    if (slug) found.add(slug);
  }
  return [...found].sort();
}
