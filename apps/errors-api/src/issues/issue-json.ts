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
  first_release?: string | null;
  last_release?: string | null;
  resolved_after_release?: string | null;
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
    first_release: row.first_release ?? null,
    last_release: row.last_release ?? null,
    // Sentry's statusDetails: resolved "in the next release" names the release it was resolved in.
    status_details: row.resolved_after_release
      ? { in_next_release: true, after_release: row.resolved_after_release }
      : {},
  };
}

export type IssueJson = ReturnType<typeof issueJson>;
