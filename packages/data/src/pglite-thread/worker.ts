/**
 * The worker thread that owns the embedded database. It runs requests from `PGliteThread` in
 * arrival order (PGlite itself serialises them and holds plain queries back while a transaction
 * is open, exactly as in the app's thread) and answers with results in Postgres's text form.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { messages, PGlite, type Transaction } from '@electric-sql/pglite';
import { copyCluster, startFrom } from '../cluster-template.ts';
import type { ErrorData, RawResult, Ready, Reply, Request, WorkerInput } from './protocol.ts';

const port = parentPort as NonNullable<typeof parentPort>;

const RAW = { rowMode: 'array' } as const;

/**
 * Makes every parser of the database leave the text as it is (arrays included): the app's thread
 * parses, with the caller's parsers. Set on the instance once: PGlite merges per-query parsers over
 * its own on every query, which cost 0.1 ms a statement.
 */
function keepText(db: PGlite): void {
  for (const oid of Object.keys(db.parsers)) db.parsers[oid] = (value: string) => value;
}

/** Array types and their element types, for the app's thread to parse arrays as PGlite does. */
async function arrayTypes(db: PGlite): Promise<[number, number][]> {
  const { rows } = await db.query<[number, number]>(
    `SELECT a.oid, a.typelem FROM pg_catalog.pg_type a WHERE a.typcategory = 'A' AND a.typelem <> 0`,
    [],
    RAW,
  );
  return rows;
}

interface OpenTransaction {
  tx: Transaction;
  /** Lets the transaction callback return, so PGlite commits (unless rolled back). */
  finish(): void;
  /** Settles when PGlite has committed or rolled back. */
  settled: Promise<void>;
}

const transactions = new Map<number, OpenTransaction>();
let nextTransaction = 1;

function raw(result: { rows: unknown[]; fields: { name: string; dataTypeID: number }[]; affectedRows?: number }) {
  const out: RawResult = {
    rows: result.rows as unknown[][],
    fields: result.fields.map((f) => ({ name: f.name, dataTypeID: f.dataTypeID })),
  };
  if (result.affectedRows !== undefined) out.affectedRows = result.affectedRows;
  return out;
}

function errorData(err: unknown): ErrorData {
  if (!(err instanceof Error)) return { message: String(err), database: false, fields: {} };
  const fields: Record<string, unknown> = {};
  // Only plain values cross threads; PGlite also hangs the query's options (functions) on errors.
  for (const [key, value] of Object.entries(err)) {
    if (value === undefined || ['string', 'number', 'boolean'].includes(typeof value)) fields[key] = value;
  }
  return { message: err.message, database: err instanceof messages.DatabaseError, fields };
}

function target(db: PGlite, tx: number | undefined): PGlite | Transaction {
  if (tx === undefined) return db;
  const open = transactions.get(tx);
  if (!open) throw new Error(`transaction ${tx} is not open`);
  return open.tx;
}

function begin(db: PGlite, id: number): void {
  const txId = nextTransaction++;
  let answered = false;
  let finish = () => {};
  const finished = new Promise<void>((resolve) => {
    finish = resolve;
  });
  const settled = db.transaction(async (tx) => {
    transactions.set(txId, { tx, finish, settled });
    answered = true;
    port.postMessage({ id, ok: true, tx: txId } satisfies Reply);
    await finished;
  });
  settled
    .catch((err) => {
      // BEGIN itself failed: the request is still waiting for its answer.
      if (!answered) port.postMessage({ id, ok: false, error: errorData(err) } satisfies Reply);
    })
    .finally(() => transactions.delete(txId));
}

async function end(request: Extract<Request, { op: 'commit' | 'rollback' }>): Promise<Reply> {
  const open = transactions.get(request.tx);
  if (!open) throw new Error(`transaction ${request.tx} is not open`);
  try {
    if (request.op === 'rollback') await open.tx.rollback();
  } finally {
    open.finish();
  }
  await open.settled;
  return { id: request.id, ok: true };
}

async function handle(db: PGlite, request: Request): Promise<Reply | undefined> {
  switch (request.op) {
    case 'query':
      return {
        id: request.id,
        ok: true,
        result: raw(await target(db, request.tx).query(request.text, request.params, RAW)),
      };
    case 'exec':
      return { id: request.id, ok: true, result: (await target(db, request.tx).exec(request.text, RAW)).map(raw) };
    case 'begin':
      begin(db, request.id);
      return undefined;
    case 'commit':
    case 'rollback':
      return end(request);
    case 'close':
      await db.close();
      return { id: request.id, ok: true };
  }
}

/** Opens the database, from a new cluster's files when given (dropped from workerData: 40 MB). */
function openDatabase(input: WorkerInput): Promise<PGlite> {
  const files = input.clusterFiles;
  input.clusterFiles = undefined;
  return PGlite.create(input.dataDir, { ...startFrom(files), ...input.wasm });
}

const input = workerData as WorkerInput;
try {
  const db = await openDatabase(input);
  const copy = input.copyClusterFiles ? await copyCluster(db) : undefined;
  const arrays = await arrayTypes(db);
  keepText(db);
  port.on('message', (request: Request) => {
    handle(db, request).then(
      (reply) => {
        if (reply) port.postMessage(reply);
      },
      (err) => port.postMessage({ id: request.id, ok: false, error: errorData(err) } satisfies Reply),
    );
  });
  const ready: Ready = { id: 0, ok: true, arrays, ...(copy && { clusterFiles: copy }) };
  port.postMessage(ready, copy ? [copy.buffer as ArrayBuffer] : []);
} catch (err) {
  port.postMessage({ id: 0, ok: false, error: errorData(err) } satisfies Reply);
}
