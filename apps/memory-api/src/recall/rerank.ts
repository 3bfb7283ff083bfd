import type { RecallStrategy } from '../config.ts';
import { type MemoryFilter, matchesFilter } from '../memories/filters.ts';
import type { MemoryStore } from '../memories/memory-store.ts';
import type { MemoryRow } from '../memories/record.ts';
import { termStatistics } from './bm25.ts';
import { BOOST_FACTOR_RANGE } from './boosts.ts';
import { namedSpeakers, type Situation, sameConversation, situations, timeMatch } from './context.ts';
import type { Fused } from './fuse.ts';
import { softMatch } from './soft-match.ts';
import type { Span } from './time.ts';

/** The signals reranking adds to a fused candidate; all shown by `explain`. */
export interface Reranked {
  id: string;
  fused: Fused;
  /** Evidence lent by the turn before or after it (the question a reply answers, say). */
  context: number;
  /** 1 when the question names the memory's speaker or author, else 0. */
  speaker: number;
  /** How well the memory's time meets the time the question names (0..1), when it names one. */
  time: number | null;
  /** How closely the memory's words meet the question's (soft-match.ts), when measured. */
  soft?: number;
  /** Before boosts, on the scale of `fused`. */
  score: number;
  /** The memory's row when reranking read it (the best candidates and their neighbours). */
  row?: MemoryRow;
}

/**
 * The rerank weights, tuned with bench:locomo on its tuning conversations: `forward` the share of
 * a memory's evidence lent to the memory written just after it (the reply that answers it),
 * `back` to the one just before it ("it was great" needs the turn that said what "it" is),
 * `forward2` and `back2` to the turns two away (the same speaker's next or previous turn: a
 * person goes on about what they said a turn ago), `speaker` the multiplier for memories whose
 * speaker the question names (selects that person's memories, never outweighs content), `time`
 * the multiplier at a perfect match of the question's time, `soft` the weight of the soft word
 * match beside the fused strengths.
 */
export const RERANK_WEIGHTS = { forward: 0.8, back: 0.3, forward2: 0.6, back2: 0.2, speaker: 1, time: 2, soft: 3 };

/**
 * The score a client sees, 0..1 and distinct (no cap that ties the best results): 1 - 2^(-s / half)
 * of the reranked, boosted evidence s, so that evidence `half` scores 0.5, `strict`'s bar. Each
 * strategy gathers evidence on its own scale, so each has its own half, set with
 * `bench:locomo --calibrate` on its tuning conversations: at 0.5 a strategy keeps its hits in the
 * question's own conversation and answers nothing where the question's people and events do not
 * exist (see the README for the figures).
 */
export const SCORE: Record<RecallStrategy, number> = { fusion: 1.7, fts5: 0.5, hybrid: 0.37, vector: 0.5, graph: 0.5 };
export const clientScore = (s: number, strategy: RecallStrategy) => 1 - 2 ** (-s / SCORE[strategy]);
/**
 * Fused candidates whose situation is read and whose neighbours may borrow from them. On the
 * tuning half of bench:quality 20 ranks fusion as 40 did (0.692 / 0.690 recall_any@5) and vector
 * alike, hybrid 0.505 / 0.524 and fts5 0.422 / 0.428; reading 40 rows instead of 20 cost about
 * 1.5 ms of every recall at 100k memories.
 */
export const RERANK_DEPTH = { depth: 20 };

/**
 * Reorders the best fused candidates by their situation: the question names a speaker (that
 * person's memories are preferred), a time (memories of that time are preferred), and a memory's
 * neighbours in its conversation lend it part of their score, so the reply that answers a
 * question is found when the question matches the turn asking it.
 */
export async function rerank(
  store: MemoryStore,
  fused: Fused[],
  question: {
    query: string;
    span?: Span | undefined;
    filter: MemoryFilter;
    limit: number;
    soft: boolean;
    read: number;
  },
): Promise<Reranked[]> {
  const top = fused.slice(0, RERANK_DEPTH.depth);
  const byId = new Map(fused.map((f) => [f.id, f]));
  // Reranking only raises scores, so a candidate below the depth that even the largest boost
  // cannot lift to the limit-th fused score times the smallest one is never returned; the rows of
  // the others are read here too, in the same round trip (the recall returns from them).
  const bar = (fused[question.limit - 1]?.fused ?? 0) * BOOST_FACTOR_RANGE.min;
  // (And the first `read` of them all, whatever their score: the recall weighs their sessions.)
  const rest = fused
    .slice(RERANK_DEPTH.depth)
    .filter((f, i) => i + RERANK_DEPTH.depth < question.read || f.fused * BOOST_FACTOR_RANGE.max >= bar);
  const topIds = top.map((f) => f.id);
  const where = await situations(store, [...topIds, ...rest.map((f) => f.id)], topIds);
  const soft = new Map<string, number>();
  const softly = question.soft && RERANK_WEIGHTS.soft > 0;
  const stats = softly ? await termStatistics(store).get(question.filter.namespace) : null;
  const matchSoftly = async (ids: string[]) => {
    if (!stats || ids.length === 0) return;
    const contents = new Map(ids.flatMap((id) => (where.has(id) ? [[id, where.get(id)?.row.content as string]] : [])));
    for (const [id, m] of await softMatch(store, question.query, contents, stats)) soft.set(id, m);
  };
  await matchSoftly(topIds);
  /** A candidate's own evidence: its fused strength and how closely its words meet the question's. */
  const base = (id: string) => (byId.get(id)?.fused ?? 0) + RERANK_WEIGHTS.soft * (soft.get(id) ?? 0);
  const lenders = new Map<string, { from: string; amount: number }>();
  const lend = (to: string | undefined, from: Situation, amount: number) => {
    if (to && amount > 0 && amount > (lenders.get(to)?.amount ?? 0)) lenders.set(to, { from: from.id, amount });
  };
  for (const f of top) {
    const s = where.get(f.id);
    if (!s) continue;
    const w = RERANK_WEIGHTS;
    lend(s.after[0], s, w.forward * base(f.id));
    lend(s.before[0], s, w.back * base(f.id));
    lend(s.after[1], s, w.forward2 * base(f.id));
    lend(s.before[1], s, w.back2 * base(f.id));
  }
  // A neighbour joins the candidates only if it passes the recall's filter (tags, time...).
  const lenderEntries = await store.index.entries([...lenders.keys()]);
  for (const id of lenders.keys()) {
    const entry = lenderEntries.get(id);
    if (!entry || !matchesFilter(entry, question.filter)) lenders.delete(id);
  }
  const newcomers = [...lenders.keys()].filter((id) => !where.has(id));
  for (const [id, s] of await situations(store, newcomers)) where.set(id, s);
  await matchSoftly(newcomers);
  // A neighbour lends only within a conversation's session (across a break, turns are unrelated).
  const lent = new Map<string, number>();
  for (const [id, { from, amount }] of lenders) {
    const s = where.get(id);
    if (s && sameConversation(s, where.get(from))) lent.set(id, amount);
  }
  const named = namedSpeakers(question.query, where.values());
  const out: Reranked[] = [];
  for (const id of new Set([...top.map((f) => f.id), ...lent.keys()])) {
    const f = byId.get(id) ?? { id, fused: 0, arms: {} };
    const s = where.get(id);
    const context = lent.get(id) ?? 0;
    const speaker = s?.speaker && named.has(s.speaker) ? 1 : 0;
    const time = question.span && s ? timeMatch(question.span, s.span) : null;
    const w = RERANK_WEIGHTS;
    const score = (base(id) + context) * (1 + w.speaker * speaker) * (1 + w.time * (time ?? 0));
    const matched = soft.get(id);
    out.push({
      id,
      fused: f,
      context,
      speaker,
      time,
      score,
      ...(matched === undefined ? {} : { soft: matched }),
      ...(s ? { row: s.row } : {}),
    });
  }
  for (const f of fused.slice(RERANK_DEPTH.depth)) {
    if (lent.has(f.id)) continue;
    const row = where.get(f.id)?.row;
    out.push({ id: f.id, fused: f, context: 0, speaker: 0, time: null, score: f.fused, ...(row ? { row } : {}) });
  }
  return out.sort((a, b) => b.score - a.score);
}
