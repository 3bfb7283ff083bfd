import { Worker } from 'node:worker_threads';
import { messages, type Results, types } from '@electric-sql/pglite';
import { BYTEA, parseBytea } from '../bytea.ts';
import { pgliteWasm } from '../pglite-wasm.ts';
import type { ErrorData, RawResult, Ready, Reply, Request, WorkerInput } from './protocol.ts';

const WORKER_ENTRY = new URL('./worker-entry.mjs', import.meta.url);

type Parsers = Record<number, (value: string) => unknown>;

export interface ThreadQueryOptions {
  rowMode?: 'object' | 'array';
  /** Parsers by type OID, used before PGlite's own (as in `PGlite.query`). */
  parsers?: Parsers;
}

/** What a transaction callback gets: the same calls, inside the transaction. */
export interface ThreadTransaction {
  query<T>(text: string, params?: unknown[], options?: ThreadQueryOptions): Promise<Results<T>>;
  exec(text: string, options?: ThreadQueryOptions): Promise<Results[]>;
  rollback(): Promise<void>;
  readonly closed: boolean;
}

/** How long the thread may owe its oldest answer before the database counts as stalled. */
export const DEFAULT_STALL_MS = 15_000;

/**
 * Raised once the database thread has not answered for the stall bound: every waiting call is
 * failed with it, and so is every later one, at once. A database that stops answering (PGlite
 * spinning after a failed WAL write on a full disk) would otherwise hold each request for ever.
 */
export class DatabaseStalledError extends Error {
  override readonly name = 'DatabaseStalledError';
}

type Call = Request extends infer R ? (R extends { id: number } ? Omit<R, 'id'> : never) : never;

/**
 * The embedded database on a thread of its own. PGlite runs Postgres as WebAssembly in the thread
 * that calls it, so in the app's thread every statement stops HTTP parsing, JSON, embeddings and
 * index work until it returns; here the two run side by side on two cores. It offers the part of
 * PGlite's API that the data tier and Prisma's PGlite adapter use (query, exec, transaction), with
 * the same semantics: one connection, statements in order, plain queries held back while a
 * transaction is open. Values cross threads as text and are parsed here, so callers' parsers
 * (the Prisma adapter's) apply exactly as they would in process.
 */
export class PGliteThread {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve(reply: Reply): void; reject(err: Error): void; at: number }>();
  private stopped: Error | undefined;
  private readonly watchdog: NodeJS.Timeout;

  private constructor(
    private readonly worker: Worker,
    /** The parsers PGlite itself would use (its defaults, and arrays of them). */
    private readonly parsers: Parsers,
    private readonly where: string,
    private readonly stallMs: number,
  ) {
    worker.on('message', (reply: Reply) => {
      const call = this.pending.get(reply.id);
      if (!call) return;
      this.pending.delete(reply.id);
      if (this.pending.size === 0) worker.unref();
      call.resolve(reply);
    });
    const stop = (err: Error) => {
      this.stopped ??= err;
      for (const call of this.pending.values()) call.reject(this.stopped);
      this.pending.clear();
    };
    worker.on('error', stop);
    worker.on('exit', (code) => {
      clearInterval(this.watchdog);
      stop(new Error(`the embedded database thread stopped (exit code ${code})`));
    });
    // Calls are answered in order, so the oldest one owed is the one the database is running.
    const every = Math.min(1_000, stallMs);
    let lastTick = performance.now();
    this.watchdog = setInterval(() => {
      // A late tick means this thread was busy (a long synchronous task): the answers owed may be
      // waiting in its queue, read after timers. They are looked at on the next tick, not counted
      // as the database's silence.
      const now = performance.now();
      const late = now - lastTick > 2 * every;
      lastTick = now;
      if (late) return;
      const owed = this.stalledForMs();
      if (owed <= this.stallMs || this.stopped) return;
      stop(
        new DatabaseStalledError(
          `the embedded database in ${this.where} has not answered for ${Math.round(owed / 1000)} s; it needs a restart`,
        ),
      );
    }, every);
    this.watchdog.unref();
  }

  /** How long the oldest call still owed has waited (0 when none is owed). */
  stalledForMs(): number {
    const oldest = this.pending.values().next().value;
    return oldest ? performance.now() - oldest.at : 0;
  }

  /** Why the database no longer answers (stalled, or its thread stopped), if it does not. */
  get failure(): Error | undefined {
    return this.stopped;
  }

  /**
   * Starts the thread and opens the database in `dataDir` (in memory when undefined), from
   * `clusterFiles` when given; with `copyClusterFiles`, `onClusterFiles` gets a copy of the new
   * cluster's files (see cluster-template.ts).
   */
  static async open(
    dataDir: string | undefined,
    {
      stallMs = DEFAULT_STALL_MS,
      clusterFiles,
      onClusterFiles,
    }: { stallMs?: number; clusterFiles?: Uint8Array; onClusterFiles?: (files: Uint8Array) => void } = {},
  ): Promise<PGliteThread> {
    const wasm = await pgliteWasm();
    const workerData: WorkerInput = { dataDir, clusterFiles, copyClusterFiles: onClusterFiles !== undefined, wasm };
    const worker = new Worker(WORKER_ENTRY, { workerData });
    return new Promise((resolve, reject) => {
      const failed = (err: Error) => reject(err);
      const exited = (code: number) => reject(new Error(`the embedded database thread stopped (exit code ${code})`));
      worker.once('error', failed);
      worker.once('exit', exited);
      worker.once('message', (reply: Ready) => {
        worker.off('error', failed);
        worker.off('exit', exited);
        if (reply.ok) {
          if (reply.clusterFiles) onClusterFiles?.(reply.clusterFiles);
          resolve(new PGliteThread(worker, defaultParsers(reply.arrays), dataDir ?? 'memory', stallMs));
        } else {
          void worker.terminate();
          reject(toError(reply.error));
        }
      });
    });
  }

  async query<T>(text: string, params?: unknown[], options?: ThreadQueryOptions, tx?: number): Promise<Results<T>> {
    const result = (await this.call({ op: 'query', text, params, tx })) as RawResult;
    return this.parse(result, options) as Results<T>;
  }

  async exec(text: string, options?: ThreadQueryOptions, tx?: number): Promise<Results[]> {
    const results = (await this.call({ op: 'exec', text, tx })) as RawResult[];
    return results.map((r) => this.parse(r, options));
  }

  /** Runs `fn` in a transaction: committed when it resolves, rolled back when it throws. */
  async transaction<T>(fn: (tx: ThreadTransaction) => Promise<T>): Promise<T> {
    const id = (await this.call({ op: 'begin' }, true)) as number;
    let closed = false;
    let rolledBack: Promise<void> | undefined;
    const tx: ThreadTransaction = {
      query: (text, params, options) => this.query(text, params, options, id),
      exec: (text, options) => this.exec(text, options, id),
      rollback: () => {
        if (!rolledBack) {
          closed = true;
          rolledBack = this.call({ op: 'rollback', tx: id }).then(() => {});
          // Awaited below; callers (Prisma's adapter) may fire it and move on.
          rolledBack.catch(() => {});
        }
        return rolledBack;
      },
      get closed() {
        return closed;
      },
    };
    let result: T;
    try {
      result = await fn(tx);
    } catch (err) {
      await tx.rollback();
      throw err;
    }
    if (rolledBack) {
      await rolledBack;
    } else {
      closed = true;
      await this.call({ op: 'commit', tx: id });
    }
    return result;
  }

  async close(): Promise<void> {
    try {
      // A stalled thread is not asked: terminating it stops a database that spins.
      if (!this.stopped) await this.call({ op: 'close' });
    } finally {
      clearInterval(this.watchdog);
      await this.worker.terminate();
    }
  }

  private call(request: Call, wantTransaction = false): Promise<unknown> {
    if (this.stopped) return Promise.reject(this.stopped);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      // The thread keeps the process alive only while it owes an answer, as PGlite in process does not.
      if (this.pending.size === 0) this.worker.ref();
      this.pending.set(id, {
        resolve: (reply) => {
          if (!reply.ok) reject(toError(reply.error));
          else resolve(wantTransaction ? reply.tx : reply.result);
        },
        reject,
        at: performance.now(),
      });
      this.worker.postMessage({ ...request, id } as Request);
    });
  }

  /** Parses a raw result as PGlite would: the caller's parsers first, then PGlite's own. */
  private parse(result: RawResult, options: ThreadQueryOptions | undefined): Results {
    const { fields } = result;
    const own = options?.parsers;
    const parsers = fields.map(({ dataTypeID }) => own?.[dataTypeID] ?? this.parsers[dataTypeID]);
    const value = (text: unknown, i: number) => {
      const parser = parsers[i];
      return text === null || !parser ? text : parser(text as string);
    };
    const rows =
      options?.rowMode === 'array'
        ? result.rows.map((row) => row.map(value))
        : result.rows.map((row) => {
            const out: Record<string, unknown> = {};
            for (let i = 0; i < row.length; i++) out[(fields[i] as { name: string }).name] = value(row[i], i);
            return out;
          });
    return { rows, fields, ...(result.affectedRows === undefined ? {} : { affectedRows: result.affectedRows }) };
  }
}

/**
 * PGlite's default parsers (bytea decoded natively, as `openDatabase` asks of PGlite in process)
 * plus, like a PGlite instance builds at start, one per array type.
 */
function defaultParsers(arrays: [number, number][]): Parsers {
  const parsers: Parsers = { ...types.parsers, [BYTEA]: parseBytea };
  for (const [array, element] of arrays) {
    parsers[array] = (text) => types.arrayParser(text, parsers[element] ?? ((value) => value), array);
  }
  return parsers;
}

function toError(data: ErrorData): Error {
  const err = data.database
    ? new messages.DatabaseError(data.message, Number(data.fields.length ?? 0), 'error')
    : new Error(data.message);
  for (const [key, value] of Object.entries(data.fields)) {
    if (key !== 'length' && key !== 'name') (err as unknown as Record<string, unknown>)[key] = value;
  }
  return err;
}
