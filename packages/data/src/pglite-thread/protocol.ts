/** Messages between `PGliteThread` (the app's thread) and the worker thread that owns PGlite. */
import type { PGliteOptions } from '@electric-sql/pglite';

export type Request =
  | { id: number; op: 'query'; tx?: number; text: string; params?: unknown[] }
  | { id: number; op: 'exec'; tx?: number; text: string }
  | { id: number; op: 'begin' }
  | { id: number; op: 'commit' | 'rollback'; tx: number }
  | { id: number; op: 'close' };

/** A result as the worker sends it: every value still in Postgres's text form, parsed on arrival. */
export interface RawResult {
  rows: unknown[][];
  fields: { name: string; dataTypeID: number }[];
  affectedRows?: number;
}

/** A database error's own fields (code, detail, constraint, ...), carried across as plain data. */
export interface ErrorData {
  message: string;
  database: boolean;
  fields: Record<string, unknown>;
}

export type Reply =
  | { id: number; ok: true; result?: RawResult | RawResult[]; tx?: number }
  | { id: number; ok: false; error: ErrorData };

/** The first message: the database is open (or could not be opened). */
export type Ready =
  | { id: 0; ok: true; arrays: [number, number][]; clusterFiles?: Uint8Array }
  | { id: 0; ok: false; error: ErrorData };

export interface WorkerInput {
  /** PGlite's data directory; undefined for an in-memory database. */
  dataDir: string | undefined;
  /** The files of a new cluster to start from (a `dumpDataDir` tarball) instead of running initdb. */
  clusterFiles?: Uint8Array | undefined;
  /** Answer with a copy of the new cluster's files, taken before anything else runs. */
  copyClusterFiles?: boolean;
  /** PGlite's WebAssembly, compiled once by the opening thread (pglite-wasm.ts). */
  wasm: Pick<PGliteOptions, 'pgliteWasmModule' | 'initdbWasmModule'>;
}
