/**
 * What the embedded database's own thread costs one caller sending one statement at a time, on
 * this machine, in one run: the same insert (a row with a full-text index, like a memory) through
 * PGlite in this thread and through `PGliteThread`, with the caller either idle between
 * statements or busy for `WORK_US` (what a request does around its statement: parsing, embedding,
 * index search), the two engines taking turns in rounds. The difference of the medians is the
 * hop: posting the statement, waking the thread, posting the answer, waking the caller.
 *   npm run bench:hop -w packages/data        (HOP_N, HOP_ROUNDS, WORK_US to change the run)
 */
import { PGlite } from '@electric-sql/pglite';
import { median } from '@trove/stats';
import { PGliteThread } from '../src/pglite-thread/pglite-thread.ts';

const N = Number(process.env.HOP_N ?? 300);
const ROUNDS = Number(process.env.HOP_ROUNDS ?? 5);
const WORK_US = Number(process.env.WORK_US ?? 1000);

const SCHEMA = `CREATE TABLE notes (id serial PRIMARY KEY, body text NOT NULL,
  search tsvector GENERATED ALWAYS AS (to_tsvector('english', body)) STORED);
  CREATE INDEX notes_search_idx ON notes USING GIN (search)`;
const WORDS = 'deploy cluster memory recall vector index thread statement answer wake caller replica'.split(' ');
const body = (i: number) => Array.from({ length: 14 }, (_, k) => WORDS[(i * 7 + k * 3) % WORDS.length]).join(' ');

interface Engine {
  exec(text: string): Promise<unknown>;
  close(): Promise<void>;
}

/** Keeps this thread on its core for `us` microseconds, as a request's own work does. */
function busy(us: number): void {
  const until = performance.now() + us / 1000;
  while (performance.now() < until) {
    // spin
  }
}

async function timed(engine: Engine, statement: (i: number) => string, work: number, from: number) {
  const out: number[] = [];
  for (let i = 0; i < N; i++) {
    if (work > 0) busy(work);
    else await new Promise((resolve) => setTimeout(resolve, 1));
    const started = performance.now();
    await engine.exec(statement(from + i));
    out.push((performance.now() - started) * 1000);
  }
  return out;
}

const engines: { name: string; engine: Engine }[] = [
  { name: 'in this thread', engine: await PGlite.create() },
  { name: 'on its own thread', engine: await PGliteThread.open(undefined) },
];
for (const { engine } of engines) await engine.exec(SCHEMA);

const cases = [
  { name: 'SELECT 1', statement: () => 'SELECT 1' },
  { name: 'INSERT of a note', statement: (i: number) => `INSERT INTO notes (body) VALUES ('${body(i)}') RETURNING id` },
];
const waits = [
  { name: `busy ${WORK_US} us between statements`, work: WORK_US },
  { name: 'asleep 1 ms between statements', work: 0 },
];
console.log(
  `one statement at a time, ${ROUNDS} rounds of ${N} per engine, the engines in turn; median us per statement`,
);
console.log('| statement | caller | in this thread | on its own thread | hop |');
console.log('|---|---|---|---|---|');
let row = 0;
for (const c of cases) {
  for (const w of waits) {
    const samples = engines.map(() => [] as number[]);
    // Warm-up, not counted: compiled code on both sides.
    for (const { engine } of engines) await timed(engine, c.statement, w.work, 1e6 + row * 1e4);
    for (let round = 0; round < ROUNDS; round++) {
      for (const [e, { engine }] of engines.entries()) {
        samples[e]?.push(...(await timed(engine, c.statement, w.work, (row * ROUNDS + round) * N)));
      }
    }
    const [inThread, onThread] = samples.map(median) as [number, number];
    console.log(
      `| ${c.name} | ${w.name} | ${inThread.toFixed(0)} | ${onThread.toFixed(0)} | ${(onThread - inThread).toFixed(0)} |`,
    );
    row++;
  }
}
for (const { engine } of engines) await engine.close();
