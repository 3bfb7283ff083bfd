import type { IssueChange } from '../ingest/event-writer.ts';

/** The keys a rule's `conditions` may hold; every key given must match for the rule to fire. */
export interface RuleConditions {
  /** The event level, or any of several. */
  level?: string | string[];
  /** Fire only once the issue has at least this many events. */
  min_count?: number;
  /** Case-insensitive substring of the issue title. */
  title_contains?: string;
  /** true: only when an event creates a new issue (or reopens a resolved one). */
  new_issue?: boolean;
}

export function matches(conditions: RuleConditions, change: IssueChange): boolean {
  const { issue } = change;
  if (conditions.level !== undefined) {
    const levels = Array.isArray(conditions.level) ? conditions.level : [conditions.level];
    if (!levels.includes(issue.level)) return false;
  }
  if (conditions.min_count !== undefined && Number(issue.count) < conditions.min_count) return false;
  if (
    conditions.title_contains !== undefined &&
    !issue.title.toLowerCase().includes(conditions.title_contains.toLowerCase())
  ) {
    return false;
  }
  if (conditions.new_issue === true && !change.created && !change.reopened) return false;
  return true;
}
