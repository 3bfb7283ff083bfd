import { badRequest, notFound } from '@trove/service-kit';
import type { ErrorsDatabase } from '../db.ts';
import { LEVELS } from '../ingest/event-shape.ts';
import { STATUSES } from '../schemas/issues.ts';
import { notAllowed } from '../schemas/suggest.ts';
import type { IssueRow } from './issue-json.ts';
import { likePattern, parseSearch, searchConditions } from './search-query.ts';
import { SORTS, type SortKey } from './sorts.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface Page {
  page: number;
  per_page: number;
}

/** "error,fatal" → ['error', 'fatal'], refusing values outside the allowed set. */
export function parseFilter(raw: string | undefined, allowed: readonly string[], name: string): string[] | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  const values = raw.split(',').map((v) => v.trim().toLowerCase());
  const bad = values.find((v) => !allowed.includes(v));
  if (bad !== undefined)
    throw badRequest(`${notAllowed(`querystring.${name}`, bad, allowed, name)} (one value or a comma-separated list)`);
  return values;
}

export const parseStatusFilter = (raw?: string) => parseFilter(raw, STATUSES, 'status');
export const parseLevelFilter = (raw?: string) => parseFilter(raw, LEVELS, 'level');

export interface IssueFilter {
  projectId: number;
  statuses?: string[];
  levels?: string[];
  /** Case-insensitive substring of the title. */
  titleContains?: string;
  /** Sentry search syntax (see search-query.ts). */
  query?: string;
  environment?: string;
  release?: string;
  sort?: SortKey;
}

/** The WHERE clause (over `issues`) and its parameters for a filter. */
export function issueWhere(filter: IssueFilter): { clause: string; params: unknown[] } {
  const where = ['project_id = $1'];
  const params: unknown[] = [filter.projectId];
  if (filter.statuses) {
    params.push(filter.statuses);
    where.push(`status = ANY($${params.length}::text[])`);
  }
  if (filter.levels) {
    params.push(filter.levels);
    where.push(`level = ANY($${params.length}::text[])`);
  }
  if (filter.titleContains !== undefined) {
    params.push(likePattern(filter.titleContains));
    where.push(`title ILIKE $${params.length} ESCAPE '\\'`);
  }
  const search = parseSearch(filter.query ?? '');
  // ?environment= and ?release= are the same as the search keys (Sentry's global filters).
  if (filter.environment) search.terms.push({ key: 'environment', values: [filter.environment], negated: false });
  if (filter.release) search.terms.push({ key: 'release', values: [filter.release], negated: false });
  where.push(...searchConditions(search, params));
  return { clause: where.join(' AND '), params };
}

export async function listIssues(db: ErrorsDatabase, filter: IssueFilter, page: Page, columns = '*') {
  const { clause, params } = issueWhere(filter);
  const [counted] = await db.sql.query<{ total: string | number }>(
    `SELECT count(*) AS total FROM issues WHERE ${clause}`,
    params,
  );
  const rows = await db.sql.query<IssueRow & { user_count: number | string }>(
    `SELECT ${columns} FROM issues WHERE ${clause} ORDER BY ${SORTS[filter.sort ?? 'date']}, id
     LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
    [...params, page.per_page, (page.page - 1) * page.per_page],
  );
  return { rows, total: Number(counted?.total ?? 0) };
}

export async function findIssue(db: ErrorsDatabase, id: string): Promise<IssueRow & { project_slug: string }> {
  if (!UUID.test(id)) throw notFound(`no issue with id "${id}"`);
  const [row] = await db.sql.query<IssueRow & { project_slug: string }>(
    'SELECT i.*, p.slug AS project_slug FROM issues i JOIN projects p ON p.id = i.project_id WHERE i.id = $1',
    [id],
  );
  if (!row) throw notFound(`no issue with id "${id}"`);
  return row;
}
