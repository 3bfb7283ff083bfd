// Kept apart from search-query.ts: the request schemas read it while they load.

/** Sentry's sort names and the dashboard's, to the ORDER BY of each. */
export const SORTS = {
  date: 'last_seen DESC',
  new: 'first_seen DESC',
  freq: 'count DESC',
  user: 'user_count DESC',
  last_seen: 'last_seen DESC',
  first_seen: 'first_seen DESC',
  events: 'count DESC',
  users: 'user_count DESC',
} as const;
export type SortKey = keyof typeof SORTS;
