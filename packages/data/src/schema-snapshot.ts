import type { SqlSession } from './driver.ts';

/**
 * A sorted, line-per-object description of the `public` schema: tables, columns (type, null,
 * default), indexes, constraints and enums. Two databases with equal snapshots have the same
 * shape as far as Prisma is concerned; the migration check compares them line by line.
 */
export async function describeSchema(db: SqlSession): Promise<string[]> {
  const lines: string[] = [];
  const columns = await db.query<{ t: string; c: string; type: string; notnull: boolean; def: string | null }>(`
    SELECT c.relname AS t, a.attname AS c, format_type(a.atttypid, a.atttypmod) AS type,
           a.attnotnull AS notnull, pg_get_expr(d.adbin, d.adrelid) AS def
    FROM pg_attribute a
    JOIN pg_class c ON c.oid = a.attrelid
    JOIN pg_namespace n ON n.oid = c.relnamespace
    LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
    WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND a.attnum > 0 AND NOT a.attisdropped
      AND c.relname <> '_prisma_migrations'`);
  for (const col of columns) {
    lines.push(
      `column ${col.t}.${col.c} ${col.type}${col.notnull ? ' not null' : ''}${col.def ? ` default ${col.def}` : ''}`,
    );
  }
  const indexes = await db.query<{ def: string }>(`
    SELECT indexdef AS def FROM pg_indexes
    WHERE schemaname = 'public' AND tablename <> '_prisma_migrations'`);
  for (const index of indexes) lines.push(`index ${index.def}`);
  const constraints = await db.query<{ t: string; name: string; def: string }>(`
    SELECT c.relname AS t, k.conname AS name, pg_get_constraintdef(k.oid) AS def
    FROM pg_constraint k
    JOIN pg_class c ON c.oid = k.conrelid
    JOIN pg_namespace n ON n.oid = c.relnamespace
    -- Newer Postgres (PGlite) also lists NOT NULL as constraints; the column lines carry it already.
    WHERE n.nspname = 'public' AND c.relname <> '_prisma_migrations' AND k.contype <> 'n'`);
  for (const k of constraints) lines.push(`constraint ${k.t}.${k.name} ${k.def}`);
  const enums = await db.query<{ name: string; labels: string }>(`
    SELECT t.typname AS name, string_agg(e.enumlabel, ',' ORDER BY e.enumsortorder) AS labels
    FROM pg_type t JOIN pg_enum e ON e.enumtypid = t.oid
    JOIN pg_namespace n ON n.oid = t.typnamespace
    WHERE n.nspname = 'public' GROUP BY t.typname`);
  for (const e of enums) lines.push(`enum ${e.name} (${e.labels})`);
  return lines.sort();
}

/** Lines only in `expected` and lines only in `actual`. */
export function diffSnapshots(expected: string[], actual: string[]): { missing: string[]; unexpected: string[] } {
  const a = new Set(actual);
  const e = new Set(expected);
  return { missing: expected.filter((l) => !a.has(l)), unexpected: actual.filter((l) => !e.has(l)) };
}
