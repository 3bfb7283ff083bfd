/**
 * LoCoMo (Maharana et al., ACL 2024): long multi-session conversations with questions whose
 * evidence is named turn by turn. Read from the file a user fetched (`locomo10.json` of
 * snap-research/LoCoMo, CC BY-NC 4.0); nothing of it is kept in this repository.
 */
import { readFileSync } from 'node:fs';

export interface Turn {
  /** "D3:5": session 3, turn 5. */
  diaId: string;
  speaker: string;
  text: string;
  session: number;
  sessionTime: string;
}

export interface Question {
  text: string;
  evidence: string[];
  category: Category;
}

export interface Conversation {
  id: string;
  turns: Turn[];
  questions: Question[];
}

/** LoCoMo's categories 1-4; 5 (adversarial, no answer in the conversation) is left out, as usual. */
export const CATEGORIES = { 1: 'multi-hop', 2: 'temporal', 3: 'open-domain', 4: 'single-hop' } as const;
export type Category = keyof typeof CATEGORIES;

interface RawTurn {
  speaker: string;
  dia_id: string;
  text: string;
}
interface RawConversation {
  sample_id: string;
  conversation: Record<string, unknown>;
  qa: { question: string; evidence?: string[]; category: number }[];
}

export const sessionOf = (diaId: string) => Number(/^D(\d+):/.exec(diaId)?.[1] ?? Number.NaN);

export function readLocomo(path: string, only?: Set<string>): Conversation[] {
  const raw = JSON.parse(readFileSync(path, 'utf8')) as RawConversation[];
  if (!Array.isArray(raw)) throw new Error(`${path}: expected LoCoMo's array of conversations`);
  return raw
    .filter((c) => !only || only.has(c.sample_id))
    .map((c) => {
      const turns: Turn[] = [];
      for (let n = 1; Array.isArray(c.conversation[`session_${n}`]); n++) {
        const sessionTime = String(c.conversation[`session_${n}_date_time`] ?? '');
        for (const t of c.conversation[`session_${n}`] as RawTurn[]) {
          turns.push({ diaId: t.dia_id, speaker: t.speaker, text: t.text, session: n, sessionTime });
        }
      }
      const questions = c.qa
        .filter((q) => q.category in CATEGORIES && (q.evidence?.length ?? 0) > 0)
        .map((q) => ({ text: q.question, evidence: q.evidence ?? [], category: q.category as Category }));
      return { id: c.sample_id, turns, questions };
    });
}

/** A question's outcome for one strategy: what the benchmark's columns average. */
export interface Outcome {
  category: Category;
  /** Any evidence turn among the first 5 / 10 results. */
  any5: number;
  any10: number;
  /** Share of the evidence's sessions that the first 10 results' sessions cover. */
  session10: number;
  /** Any of the evidence's sessions among the first 10 results' sessions. */
  sessionAny10: number;
}

export function outcome(q: Question, ranked: (Turn | undefined)[]): Outcome {
  const want = new Set(q.evidence);
  const hit = (k: number) => (ranked.slice(0, k).some((t) => t && want.has(t.diaId)) ? 1 : 0);
  const sessions = new Set(q.evidence.map(sessionOf).filter((s) => !Number.isNaN(s)));
  const seen = new Set(ranked.slice(0, 10).map((t) => t?.session));
  const covered = [...sessions].filter((s) => seen.has(s)).length;
  return {
    category: q.category,
    any5: hit(5),
    any10: hit(10),
    session10: sessions.size ? covered / sessions.size : 0,
    sessionAny10: covered > 0 ? 1 : 0,
  };
}

export const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
