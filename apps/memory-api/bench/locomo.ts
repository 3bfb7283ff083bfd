/**
 * Recall on real long conversations: LoCoMo, through the HTTP API on embedded defaults.
 * Every turn is remembered as "Speaker: text" (type event, metadata dia_id and session_time), one
 * namespace per conversation; every question of categories 1-4 is asked with /recall in its own
 * conversation's namespace. Printed per strategy, beside a plain Okapi BM25 computed here:
 * turn recall_any@5 overall and per category, turn recall_any@10, session recall@10, recall
 * p50/p95 ms, and `strict`: the share of hits@5 it keeps, and how often it answers nothing when the
 * question is asked in another conversation's namespace (the next one in the file).
 *
 *   npm run bench:locomo -w apps/memory-api -- --data PATH/locomo10.json
 *     [--strategies bm25,fusion,fts5] [--conversations conv-26,conv-30] [--embedder glove|hash|onnx (with ONNX_MODEL_DIR)]
 *     [--tune "vector=2,fts5=1;vector=1"]   (each setting runs every strategy once: tuning)
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createLogger } from '@trove/service-kit';
import { percentile } from '@trove/stats';
import { buildMemoryApp } from '../src/app.ts';
import { RECALL_STRATEGIES, readConfig } from '../src/config.ts';
import { RECALL_TUNABLES } from '../src/recall/tunables.ts';
import { Bm25Baseline, stemmedTerms } from './conversations/bm25.ts';
import {
  CATEGORIES,
  type Category,
  type Conversation,
  mean,
  type Outcome,
  outcome,
  readLocomo,
  type Turn,
} from './locomo/data.ts';

const { values: args } = parseArgs({
  options: {
    data: { type: 'string', default: process.env.LOCOMO_DATA },
    strategies: { type: 'string', default: ['bm25', ...RECALL_STRATEGIES].join(',') },
    conversations: { type: 'string' },
    embedder: { type: 'string' },
    tune: { type: 'string', default: '' },
    quick: { type: 'boolean', default: false },
    calibrate: { type: 'boolean', default: false },
    strict: { type: 'boolean', default: true },
  },
  allowNegative: true,
});
if (!args.data) {
  console.error('usage: npm run bench:locomo -w apps/memory-api -- --data PATH/locomo10.json (see the README)');
  process.exit(2);
}
const conversations = readLocomo(args.data, args.conversations ? new Set(args.conversations.split(',')) : undefined);
const strategies = args.strategies.split(',');

const logger = createLogger({ service: 'memory-api', level: 'silent', format: 'json' });
const cacheDir = process.env.EMBEDDINGS_CACHE_DIR ?? join(tmpdir(), 'trove-embeddings-test-cache');
const env: NodeJS.ProcessEnv = {
  ...process.env,
  DATA_DIR: 'memory://',
  DATABASE_URL: '',
  EMBEDDINGS_CACHE_DIR: cacheDir,
};
if (args.embedder) env.EMBEDDER = args.embedder;
const app = await buildMemoryApp(readConfig(env), logger);
const post = async (url: string, body: unknown) => {
  const res = await app.inject({ method: 'POST', url, payload: body as object });
  if (res.statusCode >= 400) throw new Error(`${url} answered ${res.statusCode}: ${res.body}`);
  return res.json();
};
const terms = stemmedTerms(app.memoryStore.db.sql);

const namespaceOf = (c: Conversation) => `locomo-${c.id}`;
const turnOf = new Map<string, Turn>();
const baselines = new Map<string, Bm25Baseline>();
const loadStart = performance.now();
let stored = 0;
for (const c of conversations) {
  const baseline = new Bm25Baseline();
  baselines.set(c.id, baseline);
  for (const t of c.turns) {
    const content = `${t.speaker}: ${t.text}`;
    const res = await post('/remember', {
      content,
      type: 'event',
      namespace: namespaceOf(c),
      metadata: { dia_id: t.diaId, session_time: t.sessionTime },
    });
    // A turn said twice word for word is one memory: the first turn keeps it.
    if (!turnOf.has(res.id)) {
      turnOf.set(res.id, t);
      baseline.add(res.id, await terms(content));
    }
    stored++;
  }
}
const asked = conversations.flatMap((c, i) =>
  c.questions.map((q) => ({ ...q, c, other: conversations[(i + 1) % conversations.length] as Conversation })),
);
console.log(
  `LoCoMo: ${conversations.map((c) => c.id).join(', ')}: ${stored} turns, ${asked.length} questions; ` +
    `loaded in ${((performance.now() - loadStart) / 1000).toFixed(0)} s`,
);

type Ranked = (Turn | undefined)[];
const scored = async (query: string, c: Conversation, strategy: string, limit: number, strict = false) =>
  (
    (await post('/recall', { query, namespace: namespaceOf(c), strategy, limit, ...(strict ? { strict } : {}) })) as {
      id: string;
      score: number;
    }[]
  ).map((r) => ({ turn: turnOf.get(r.id), score: r.score }));
const recall = async (query: string, c: Conversation, strategy: string, limit: number, strict = false) =>
  (await scored(query, c, strategy, limit, strict)).map((r) => r.turn);

const cats = Object.keys(CATEGORIES).map(Number) as Category[];
const f = (x: number) => x.toFixed(3);
console.log(
  `\n| strategy | recall_any@5 | ${cats.map((k) => `${CATEGORIES[k]} (${asked.filter((q) => q.category === k).length})`).join(' | ')} ` +
    '| recall_any@10 | session recall@10 (all / any) | p50 / p95 ms | strict keeps | strict abstains elsewhere |',
);
console.log(`|---|---|${cats.map(() => '---|').join('')}---|---|---|---|---|`);

const defaults = Object.fromEntries(Object.entries(RECALL_TUNABLES).map(([k, o]) => [k, { ...o }]));
function applySetting(setting: string) {
  for (const [k, o] of Object.entries(RECALL_TUNABLES)) Object.assign(o, defaults[k]);
  for (const kv of setting.split(',').filter(Boolean)) {
    const [path, v] = kv.split('=') as [string, string];
    const [group, key] = path.includes('.') ? (path.split('.') as [string, string]) : [undefined, path];
    const target = Object.entries(RECALL_TUNABLES).find(([g, o]) => (group ? g === group : key in o))?.[1] as
      | Record<string, number>
      | undefined;
    if (!target || !(key in target)) throw new Error(`--tune: no tunable ${path}`);
    target[key] = Number(v);
  }
}

for (const [n, setting] of args.tune.split(';').entries())
  for (const strategy of strategies) {
    if (strategy === 'bm25' && n > 0) continue;
    applySetting(setting);
    const outcomes: Outcome[] = [];
    const ms: number[] = [];
    let hits = 0;
    let kept = 0;
    let abstained = 0;
    const calibration: { own: number[]; elsewhere: number[] } = { own: [], elsewhere: [] };
    for (const q of asked) {
      let ranked: Ranked;
      const s = performance.now();
      if (strategy === 'bm25') {
        const baseline = baselines.get(q.c.id) as Bm25Baseline;
        ranked = baseline.search(await terms(q.text), 10).map((id) => turnOf.get(id));
      } else ranked = await recall(q.text, q.c, strategy, 5);
      ms.push(performance.now() - s);
      const top10 = strategy === 'bm25' || args.quick ? ranked : await recall(q.text, q.c, strategy, 10);
      const o = outcome(q, ranked);
      const o10 = outcome(q, top10);
      outcomes.push({ ...o, any10: o10.any10, session10: o10.session10, sessionAny10: o10.sessionAny10 });
      if (strategy === 'bm25') continue;
      if (args.calibrate) {
        const want = new Set(q.evidence);
        const own = (await scored(q.text, q.c, strategy, 5)).filter((r) => r.turn && want.has(r.turn.diaId));
        if (own.length > 0) calibration.own.push(Math.max(...own.map((r) => r.score)));
        calibration.elsewhere.push((await scored(q.text, q.other, strategy, 1))[0]?.score ?? 0);
      }
      if (!args.strict) continue;
      if (o.any5) {
        hits++;
        kept += outcome(q, await recall(q.text, q.c, strategy, 5, true)).any5;
      }
      if ((await recall(q.text, q.other, strategy, 5, true)).length === 0) abstained++;
    }
    const col = (pick: (o: Outcome) => number, os = outcomes) => f(mean(os.map(pick)));
    const strict =
      strategy === 'bm25' || !args.strict ? ['-', '-'] : [f(kept / Math.max(1, hits)), f(abstained / asked.length)];
    const name =
      strategy === 'bm25'
        ? 'plain Okapi BM25 (reference, in the benchmark)'
        : `${strategy}${setting ? ` ${setting}` : ''}`;
    console.log(
      `| ${name} | ${col((o) => o.any5)} | ${cats
        .map((k) =>
          col(
            (o) => o.any5,
            outcomes.filter((o) => o.category === k),
          ),
        )
        .join(' | ')} ` +
        `| ${col((o) => o.any10)} | ${col((o) => o.session10)} / ${col((o) => o.sessionAny10)} | ${percentile(ms, 50).toFixed(1)} / ${percentile(ms, 95).toFixed(1)} ` +
        `| ${strict.join(' | ')} |`,
    );
    if (args.calibrate) {
      // What min_score would keep and abstain: hits@5 whose best evidence scores at least the bar,
      // and questions asked elsewhere whose top result scores below it.
      const at = (bar: number) =>
        `${bar.toFixed(2)}: ${f(mean(calibration.own.map((x) => (x >= bar ? 1 : 0))))} / ${f(mean(calibration.elsewhere.map((x) => (x < bar ? 1 : 0))))}`;
      console.log(
        `  min_score keeps / abstains: ${[0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7].map(at).join(', ')}`,
      );
    }
  }
await app.close();
