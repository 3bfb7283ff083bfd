/** An issues row as raw SQL returns it. */
export interface IssueRow {
  id: string;
  project_id: number;
  fingerprint: string;
  grouping: unknown;
  title: string;
  culprit: string | null;
  level: string;
  status: string;
  count: number | string;
  first_seen: Date | string;
  last_seen: Date | string;
}

const iso = (v: Date | string) => (v instanceof Date ? v.toISOString() : new Date(v).toISOString());

/** The issue as the API shows it (list items, WebSocket messages and webhooks use the same shape). */
export function issueJson(row: IssueRow, projectSlug: string) {
  return {
    id: row.id,
    project: projectSlug,
    title: row.title,
    culprit: row.culprit,
    level: row.level,
    status: row.status,
    count: Number(row.count),
    first_seen: iso(row.first_seen),
    last_seen: iso(row.last_seen),
  };
}

export type IssueJson = ReturnType<typeof issueJson>;
