import { badRequest } from '@trove/service-kit';
import { LEVELS } from '../ingest/event-shape.ts';
import { STATUSES } from '../schemas/issues.ts';
import { notAllowed } from '../schemas/suggest.ts';

/**
 * Sentry's issue search syntax, the part its users type every day:
 *   is:unresolved level:error release:1.2.0 environment:prod user.email:x key:value free text
 * `!key:value` negates, `key:[a,b]` takes any of several values, quotes keep spaces
 * (`message:"card declined"`, `"two words"`). Free text matches title or culprit.
 */
export interface SearchTerm {
  key: string;
  values: string[];
  negated: boolean;
}

export interface ParsedSearch {
  terms: SearchTerm[];
  text: string;
}

const TOKEN = /(!?)([A-Za-z0-9_.-]+):(?:"((?:[^"\\]|\\.)*)"|\[([^\]]*)\]|(\S*))|"((?:[^"\\]|\\.)*)"|(\S+)/g;
const unquote = (s: string) => s.replace(/\\(.)/g, '$1');

export function parseSearch(query: string): ParsedSearch {
  const terms: SearchTerm[] = [];
  const words: string[] = [];
  for (const m of query.matchAll(TOKEN)) {
    const [, bang, key, quoted, list, bare, phrase, word] = m;
    if (key !== undefined) {
      const values =
        list !== undefined
          ? list.split(',').map((v) => unquote(v.trim().replace(/^"|"$/g, '')))
          : [quoted !== undefined ? unquote(quoted) : (bare ?? '')];
      if (values.some((v) => v === '')) throw badRequest(`query: ${key}: needs a value, e.g. ${key}:something`);
      terms.push({ key: key.toLowerCase() === 'is' ? 'is' : key, values, negated: bang === '!' });
    } else if (phrase !== undefined) words.push(unquote(phrase));
    else if (word !== undefined) words.push(word);
  }
  return { terms, text: words.join(' ') };
}

/** Escapes LIKE wildcards so a search for "100%" finds that text and nothing more. */
export const likePattern = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Columns of the issue row that search keys name directly; every other key is a tag of its events. */
const COLUMNS: Record<string, string> = {
  level: 'level',
  first_release: 'first_release',
  firstRelease: 'first_release',
};

/** SQL conditions over `issues` for a parsed search, their parameters appended to `params`. */
export function searchConditions(search: ParsedSearch, params: unknown[]): string[] {
  const where: string[] = [];
  const param = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  for (const { key, values, negated } of search.terms) {
    const not = negated ? 'NOT ' : '';
    if (key === 'is') {
      for (const v of values) {
        if (!(STATUSES as readonly string[]).includes(v)) throw badRequest(notAllowed('query: is', v, STATUSES));
      }
      where.push(`${not}status = ANY(${param(values)}::text[])`);
    } else if (COLUMNS[key]) {
      if (key === 'level') {
        for (const v of values) {
          if (!(LEVELS as readonly string[]).includes(v)) throw badRequest(notAllowed('query: level', v, LEVELS));
        }
      }
      where.push(`${not}COALESCE(${COLUMNS[key]} = ANY(${param(values)}::text[]), false)`);
    } else {
      where.push(
        `${not}EXISTS (SELECT 1 FROM issue_tags g WHERE g.issue_id = issues.id AND g.key = ${param(key)} AND g.value = ANY(${param(values)}::text[]))`,
      );
    }
  }
  if (search.text !== '') {
    const p = param(likePattern(search.text));
    where.push(`(title ILIKE ${p} ESCAPE '\\' OR culprit ILIKE ${p} ESCAPE '\\')`);
  }
  return where;
}
