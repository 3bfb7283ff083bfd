export * from './autovacuum.ts';
export * from './database.ts';
export * from './database-env.ts';
export * from './driver.ts';
export * from './migrate-command.ts';
export * from './migrations.ts';
export * from './schema-snapshot.ts';
export * from './throwaway-postgres.ts';
