/**
 * Retrieval quality on the labelled set: recall_any@5, recall_all@5, nDCG@10 and MRR per strategy,
 * per category, and how often `strict` correctly returns nothing for questions with no answer.
 *   npm run bench:quality -w apps/memory-api
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '@trove/service-kit';
import { buildMemoryApp } from '../src/app.ts';
import { RECALL_STRATEGIES, readConfig } from '../src/config.ts';
import { type LabelledQuery, loadRetrievalSet } from './retrieval-set.ts';

const logger = createLogger({ service: 'memory-api', level: 'silent', format: 'json' });
const cacheDir = process.env.EMBEDDINGS_CACHE_DIR ?? join(tmpdir(), 'trove-embeddings-test-cache');
// The rest of the configuration (bounds, default strategy) can be varied through the environment.
const app = await buildMemoryApp(
  readConfig({ ...process.env, DATA_DIR: 'memory://', DATABASE_URL: '', EMBEDDINGS_CACHE_DIR: cacheDir }),
  logger,
);
const post = async (url: string, body: unknown) =>
  (await app.inject({ method: 'POST', url, payload: body as object })).json();

const { memories, corrections, queries } = loadRetrievalSet();
const idOf = new Map<string, string>();
let duplicates = 0;
for (const m of memories) {
  const res = await post('/remember', { content: m.content, namespace: m.namespace });
  if (res.duplicate) duplicates++;
  idOf.set(m.key, res.id);
}
let rightSupersession = 0;
for (const c of corrections) {
  const res = await post('/remember', { content: c.content, namespace: c.namespace, detect_contradiction: true });
  idOf.set(c.key, res.id);
  if (res.superseded?.id === idOf.get(c.supersedes)) rightSupersession++;
}
console.log(
  `retrieval set: ${memories.length + corrections.length} memories in 4 namespaces (${duplicates} taken as duplicates), ` +
    `${queries.length} queries; corrections that retired the memory they correct: ${rightSupersession}/${corrections.length}`,
);

interface Scores {
  any5: number;
  all5: number;
  ndcg10: number;
  mrr: number;
}
function score(q: LabelledQuery, ranked: string[]): Scores {
  const want = new Set(q.expected.map((k) => idOf.get(k)));
  const top5 = ranked.slice(0, 5);
  const hits5 = top5.filter((id) => want.has(id)).length;
  let dcg = 0;
  ranked.slice(0, 10).forEach((id, i) => {
    if (want.has(id)) dcg += 1 / Math.log2(i + 2);
  });
  let idcg = 0;
  for (let i = 0; i < Math.min(want.size, 10); i++) idcg += 1 / Math.log2(i + 2);
  const first = ranked.slice(0, 10).findIndex((id) => want.has(id));
  return {
    any5: hits5 > 0 ? 1 : 0,
    all5: hits5 === want.size ? 1 : 0,
    ndcg10: dcg / idcg,
    mrr: first < 0 ? 0 : 1 / (first + 1),
  };
}
const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
const f = (x: number) => x.toFixed(3);

const answerable = queries.filter((q) => q.category !== 'abstain');
const abstain = queries.filter((q) => q.category === 'abstain');
const categories = [...new Set(answerable.map((q) => q.category))];
const rows: string[] = [];
const byCategory: string[] = [];
for (const strategy of RECALL_STRATEGIES) {
  const all: Scores[] = [];
  const perCategory = new Map<string, Scores[]>();
  for (const q of answerable) {
    const res = (await post('/recall', { query: q.query, strategy, limit: 10 })) as { id: string }[];
    const s = score(
      q,
      res.map((r) => r.id),
    );
    all.push(s);
    perCategory.set(q.category, [...(perCategory.get(q.category) ?? []), s]);
  }
  let abstained = 0;
  for (const q of abstain) {
    const res = (await post('/recall', { query: q.query, strategy, strict: true })) as unknown[];
    if (res.length === 0) abstained++;
  }
  let strictAny = 0;
  for (const q of answerable) {
    const res = (await post('/recall', { query: q.query, strategy, strict: true, limit: 10 })) as { id: string }[];
    strictAny += score(
      q,
      res.map((r) => r.id),
    ).any5;
  }
  rows.push(
    `| ${strategy} | ${f(mean(all.map((s) => s.any5)))} | ${f(mean(all.map((s) => s.all5)))} | ${f(mean(all.map((s) => s.ndcg10)))} | ${f(mean(all.map((s) => s.mrr)))} | ${f(strictAny / answerable.length)} | ${abstained}/${abstain.length} |`,
  );
  byCategory.push(
    `| ${strategy} | ${categories.map((c) => f(mean((perCategory.get(c) ?? []).map((s) => s.any5)))).join(' | ')} |`,
  );
}
console.log(`\n${answerable.length} answerable queries, no namespace given (all namespaces searched)\n`);
console.log(
  '| strategy | recall_any@5 | recall_all@5 | nDCG@10 | MRR | recall_any@5 strict | no-answer queries with strict → empty |',
);
console.log('|---|---|---|---|---|---|---|');
for (const r of rows) console.log(r);
console.log(
  `\nrecall_any@5 by category\n\n| strategy | ${categories.join(' | ')} |\n|---|${categories.map(() => '---|').join('')}`,
);
for (const r of byCategory) console.log(r);
await app.close();
