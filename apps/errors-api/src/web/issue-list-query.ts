import type { ErrorsDatabase } from '../db.ts';
import { listIssues } from '../issues/issue-queries.ts';
import { SORTS, type SortKey } from '../issues/sorts.ts';

export { SORTS, type SortKey };

export interface IssueListQuery {
  projectId: number;
  status?: string;
  level?: string;
  /** Sentry search syntax; plain words match title and culprit, case-insensitive, wildcards taken literally. */
  q?: string;
  sort: SortKey;
  page: number;
  perPage: number;
}

/** One page of a project's issues for the dashboard, with the total for pagination (the API's own query). */
export function listIssuePage(db: ErrorsDatabase, query: IssueListQuery) {
  return listIssues(
    db,
    {
      projectId: query.projectId,
      statuses: query.status ? [query.status] : undefined,
      levels: query.level ? [query.level] : undefined,
      query: query.q,
      sort: query.sort,
    },
    { page: query.page, per_page: query.perPage },
    'id, project_id, title, culprit, level, status, count, user_count, first_seen, last_seen, first_release, last_release',
  );
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
