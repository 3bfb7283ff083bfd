import { badRequest, notFound } from '@trove/service-kit';
import type { ErrorsDatabase } from '../db.ts';
import { LEVELS } from '../ingest/event-shape.ts';
import { STATUSES } from '../schemas/issues.ts';
import { notAllowed } from '../schemas/suggest.ts';
import type { IssueRow } from './issue-json.ts';

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

/** Escapes LIKE wildcards so a search for "100%" finds that text and nothing more. */
const likePattern = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export interface IssueFilter {
  projectId: number;
  statuses?: string[];
  levels?: string[];
  titleContains?: string;
}

export async function listIssues(db: ErrorsDatabase, filter: IssueFilter, page: Page) {
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
  const clause = where.join(' AND ');
  const [counted] = await db.sql.query<{ total: string | number }>(
    `SELECT count(*) AS total FROM issues WHERE ${clause}`,
    params,
  );
  const rows = await db.sql.query<IssueRow>(
    `SELECT * FROM issues WHERE ${clause} ORDER BY last_seen DESC, id LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
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
