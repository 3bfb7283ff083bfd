/**
 * Retrieval quality on long multi-session conversations (bench/conversations/): recall_any@5 and
 * recall_all@5 per kind of question, for every strategy and for a plain Okapi BM25 baseline
 * implemented here, with recall p50/p95 ms. Conversations with an even index are the tuning half;
 * the figures are for the held-back odd half unless QUALITY_HALF=tuning (or all).
 *   npm run bench:quality -w apps/memory-api
 * The older hand-written set is a regression check: npm run bench:regression -w apps/memory-api
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '@trove/service-kit';
import { percentile } from '@trove/stats';
import { buildMemoryApp } from '../src/app.ts';
import { RECALL_STRATEGIES, readConfig } from '../src/config.ts';
import { ARM_WEIGHTS } from '../src/recall/recall.ts';
import { RERANK_WEIGHTS } from '../src/recall/rerank.ts';
import { VECTOR_QUERY } from '../src/recall/vector-query.ts';
import { Bm25Baseline, stemmedTerms } from './conversations/bm25.ts';
import { generateConversations, type Question, type QuestionKind } from './conversations/generate.ts';

const CONVERSATIONS = Number(process.env.QUALITY_CONVERSATIONS ?? 20);
const SEED = Number(process.env.QUALITY_SEED ?? 16);
const HALF = process.env.QUALITY_HALF ?? 'held-back';
const STRATEGIES = (process.env.QUALITY_STRATEGIES ?? ['bm25', ...RECALL_STRATEGIES].join(',')).split(',');

const logger = createLogger({ service: 'memory-api', level: 'silent', format: 'json' });
const cacheDir = process.env.EMBEDDINGS_CACHE_DIR ?? join(tmpdir(), 'trove-embeddings-test-cache');
const app = await buildMemoryApp(
  readConfig({ ...process.env, DATA_DIR: 'memory://', DATABASE_URL: '', EMBEDDINGS_CACHE_DIR: cacheDir }),
  logger,
);
const post = async (url: string, body: unknown) =>
  (await app.inject({ method: 'POST', url, payload: body as object })).json();
const terms = stemmedTerms(app.memoryStore.db.sql);

const conversations = generateConversations(CONVERSATIONS, SEED);
const inHalf = (i: number) => HALF === 'all' || (HALF === 'tuning' ? i % 2 === 0 : i % 2 === 1);
const started = performance.now();
const idOf = new Map<string, string>();
const baselines = new Map<string, Bm25Baseline>();
let turns = 0;
for (const [i, c] of conversations.entries()) {
  if (!inHalf(i)) continue;
  const baseline = new Bm25Baseline();
  baselines.set(c.namespace, baseline);
  for (const t of c.turns) {
    const res = await post('/remember', {
      content: t.text,
      namespace: c.namespace,
      metadata: { session: t.session, session_date: t.sessionDate, speaker: t.speaker },
    });
    idOf.set(t.id, res.id);
    if (res.created !== false && !res.duplicate) baseline.add(res.id, await terms(t.text));
    turns++;
  }
}
const asked = conversations.flatMap((c, i) => (inHalf(i) ? c.questions.map((q) => ({ ...q, c })) : []));
console.log(
  `${turns} turns in ${baselines.size} conversations (${HALF} half of ${CONVERSATIONS}, seed ${SEED}), ` +
    `${asked.length} questions; loaded in ${((performance.now() - started) / 1000).toFixed(0)} s`,
);

const KINDS: QuestionKind[] = ['single-hop', 'multi-hop', 'temporal', 'open-domain'];
interface Outcome {
  kind: QuestionKind;
  any: number;
  all: number;
}
function outcome(q: Question, ranked: string[]): Outcome {
  const want = new Set(q.gold.map((g) => idOf.get(g)));
  const found = ranked.slice(0, 5).filter((id) => want.has(id)).length;
  return { kind: q.kind, any: found > 0 ? 1 : 0, all: found === want.size ? 1 : 0 };
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
const f = (x: number) => x.toFixed(3);
const counts = KINDS.map((k) => `${k} (${asked.filter((q) => q.kind === k).length})`);
console.log(`\nrecall_any@5 / recall_all@5, ${HALF} half\n`);
console.log(`| strategy | all (${asked.length}) | ${counts.join(' | ')} | p50 / p95 ms |`);
console.log(`|---|---|${KINDS.map(() => '---|').join('')}---|`);
// QUALITY_TUNE="forward=0.3,time=0.5;forward=0" runs every strategy once per setting (tuning).
const settings = (process.env.QUALITY_TUNE ?? '').split(';');
const defaults = { ...RERANK_WEIGHTS };
const armDefaults = { ...ARM_WEIGHTS };
const vectorDefaults = { ...VECTOR_QUERY };
for (const setting of settings)
  for (const strategy of STRATEGIES) {
    Object.assign(RERANK_WEIGHTS, defaults);
    Object.assign(ARM_WEIGHTS, armDefaults);
    Object.assign(VECTOR_QUERY, vectorDefaults);
    for (const kv of setting.split(',').filter(Boolean)) {
      const [k, v] = kv.split('=') as [string, string];
      if (k in ARM_WEIGHTS) (ARM_WEIGHTS as Record<string, number>)[k] = Number(v);
      else if (k in VECTOR_QUERY) (VECTOR_QUERY as Record<string, number>)[k] = Number(v);
      else (RERANK_WEIGHTS as Record<string, number>)[k] = Number(v);
    }
    if (strategy === 'bm25' && setting !== settings[0]) continue;
    const outcomes: Outcome[] = [];
    const ms: number[] = [];
    for (const q of asked) {
      const s = performance.now();
      let ranked: string[];
      if (strategy === 'bm25') {
        ranked = (baselines.get(q.c.namespace) as Bm25Baseline).search(await terms(q.text), 10);
      } else {
        const res = (await post('/recall', { query: q.text, namespace: q.c.namespace, strategy, limit: 10 })) as {
          id: string;
        }[];
        ranked = res.map((r) => r.id);
      }
      ms.push(performance.now() - s);
      outcomes.push(outcome(q, ranked));
    }
    const cell = (os: Outcome[]) => `${f(mean(os.map((o) => o.any)))} / ${f(mean(os.map((o) => o.all)))}`;
    const perKind = KINDS.map((k) => cell(outcomes.filter((o) => o.kind === k)));
    const name =
      strategy === 'bm25' ? 'plain BM25 (baseline, in the benchmark)' : `${strategy}${setting ? ` ${setting}` : ''}`;
    console.log(
      `| ${name} | ${cell(outcomes)} | ${perKind.join(' | ')} | ${percentile(ms, 50).toFixed(1)} / ${percentile(ms, 95).toFixed(1)} |`,
    );
  }
await app.close();
