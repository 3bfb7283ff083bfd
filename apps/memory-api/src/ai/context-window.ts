import { buildPack } from '../recall/pack.ts';
import type { RecallResult } from '../recall/recall.ts';

export interface ContextWindow {
  /** Ready to paste into a prompt; empty when nothing relevant fits. Never longer than `budget_chars`. */
  text: string;
  /** The memories in `text`, in the same order. */
  ids: string[];
  memories: { id: string; type: string; score: number; chars: number }[];
  skipped: { id: string; reason: 'excluded' | 'budget' }[];
  budget_chars: number;
  budget_used: number;
}

const HEADER = 'Relevant memories (most relevant first):\n';

/** One memory as a prompt line: its type and day give the model a sense of what kind of thing it is and how fresh. */
const line = (r: RecallResult) => `- [${r.type}, ${r.created_at.slice(0, 10)}] ${r.content.replace(/\s+/g, ' ')}\n`;

/**
 * Lays ranked memories out as a text block within a character budget. The budget counts the
 * whole block (header, markers, newlines), not only the memories' content, so the caller can
 * rely on `text.length <= budget_chars`. Fills in rank order with the pack logic of /recall.
 */
export function buildContextWindow(
  ranked: RecallResult[],
  budget: number,
  exclude: ReadonlySet<string>,
): ContextWindow {
  const lines = ranked.map((r) => ({ id: r.id, content: line(r), result: r }));
  const room = Math.max(0, budget - HEADER.length);
  const pack = buildPack(lines, room, exclude);
  const text = pack.selected.length > 0 ? HEADER + pack.selected.map((l) => l.content).join('') : '';
  return {
    text,
    ids: pack.selected.map((l) => l.id),
    memories: pack.selected.map((l) => ({
      id: l.id,
      type: l.result.type,
      score: l.result.score,
      chars: l.content.length,
    })),
    skipped: pack.skipped,
    budget_chars: budget,
    budget_used: text.length,
  };
}
