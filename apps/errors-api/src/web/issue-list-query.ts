import type { ErrorsDatabase } from '../db.ts';
import type { IssueRow } from '../issues/issue-json.ts';

export const SORTS = {
  last_seen: 'last_seen DESC',
  first_seen: 'first_seen DESC',
  events: 'count DESC',
  users: 'user_count DESC',
} as const;
export type SortKey = keyof typeof SORTS;

export interface IssueListQuery {
  projectId: number;
  status?: string;
  level?: string;
  /** Matched against title and culprit, case-insensitive, wildcards taken literally. */
  q?: string;
  sort: SortKey;
  page: number;
  perPage: number;
}

const likePattern = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** One page of a project's issues for the dashboard, with the total for pagination. */
export async function listIssuePage(db: ErrorsDatabase, query: IssueListQuery) {
  const where = ['project_id = $1'];
  const params: unknown[] = [query.projectId];
  if (query.status) {
    params.push(query.status);
    where.push(`status = $${params.length}`);
  }
  if (query.level) {
    params.push(query.level);
    where.push(`level = $${params.length}`);
  }
  if (query.q) {
    params.push(likePattern(query.q));
    where.push(`(title ILIKE $${params.length} ESCAPE '\\' OR culprit ILIKE $${params.length} ESCAPE '\\')`);
  }
  const clause = where.join(' AND ');
  const [counted] = await db.sql.query<{ total: string | number }>(
    `SELECT count(*) AS total FROM issues WHERE ${clause}`,
    params,
  );
  const rows = await db.sql.query<IssueRow & { user_count: number | string }>(
    `SELECT id, project_id, title, culprit, level, status, count, user_count, first_seen, last_seen FROM issues WHERE ${clause}
     ORDER BY ${SORTS[query.sort]}, id LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
    [...params, query.perPage, (query.page - 1) * query.perPage],
  );
  return { rows, total: Number(counted?.total ?? 0) };
}

/**
 * Events per UTC day over the last `days` days for each issue, oldest day first, from the daily
 * rollup kept at ingest: a chart costs one row per issue and day, however many events it had.
 */
export async function dailyEvents(
  db: ErrorsDatabase,
  issueIds: string[],
  days: number,
): Promise<Map<string, number[]>> {
  const result = new Map(issueIds.map((id) => [id, new Array<number>(days).fill(0)]));
  if (issueIds.length === 0) return result;
  const today = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate());
  const first = new Date(today - (days - 1) * 86_400_000).toISOString().slice(0, 10);
  const rows = await db.sql.query<{ issue_id: string; day: string; events: number | string }>(
    `SELECT issue_id, to_char(day, 'YYYY-MM-DD') AS day, events FROM issue_daily_events
     WHERE issue_id = ANY($1::uuid[]) AND day >= $2::date`,
    [issueIds, first],
  );
  for (const row of rows) {
    const buckets = result.get(row.issue_id);
    const index = Math.round((Date.parse(`${row.day}T00:00:00Z`) - Date.parse(`${first}T00:00:00Z`)) / 86_400_000);
    if (buckets && index >= 0 && index < days) buckets[index] = Number(row.events);
  }
  return result;
}
