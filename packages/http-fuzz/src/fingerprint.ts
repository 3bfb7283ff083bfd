/** Runs one SQL query and returns its rows (the apps' database drivers all offer this). */
export type QueryRows = (text: string) => Promise<Record<string, unknown>[]>;

/**
 * A cheap summary of every table: row count and a hash of the rows. Equal before and after a
 * request means the request stored nothing. `skip` names tables that change on their own.
 */
export async function tableFingerprint(query: QueryRows, skip: string[] = []): Promise<() => Promise<string>> {
  const tables = (
    await query(
      `SELECT table_name AS name FROM information_schema.tables
       WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name <> '_prisma_migrations'
       ORDER BY table_name`,
    )
  )
    .map((r) => String(r.name))
    .filter((name) => !skip.includes(name));
  const sql = tables
    .map(
      (t) =>
        `SELECT '${t}' AS t, count(*) AS n, md5(coalesce(string_agg(md5(x::text), '' ORDER BY md5(x::text)), '')) AS h FROM "${t}" x`,
    )
    .join(' UNION ALL ');
  return async () => (await query(sql)).map((r) => `${r.t}:${r.n}:${r.h}`).join(',');
}
