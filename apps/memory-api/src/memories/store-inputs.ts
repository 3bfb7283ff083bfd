/** What MemoryStore takes and gives: a new memory, a patch, the result of a remember. */
import type { MemoryRow } from './record.ts';

export interface StoreThresholds {
  duplicate: number;
  link: number;
  contradiction: number;
}

export interface NewMemory {
  content: string;
  tags: string[];
  namespace: string;
  memoryType: string;
  metadata: Record<string, unknown>;
  sourceType: string;
  /** The rest are null, false, 0.5 and false when not given. */
  source?: string | null;
  authorType?: string | null;
  validFrom?: Date | null;
  validUntil?: Date | null;
  detectContradiction?: boolean;
  importance?: number;
  pinned?: boolean;
  /** Evidence recorded on the `created` event (e.g. that the type was inferred). */
  evidence: Record<string, unknown>;
}

export interface RememberResult {
  row: MemoryRow;
  created: boolean;
  /** The live memory this one retired, with `detect_contradiction`. */
  superseded?: { id: string; similarity: number };
  /** When a near-duplicate was returned instead of storing: its similarity. */
  duplicateSimilarity?: number;
}

export interface MemoryPatch {
  content?: string;
  importance?: number;
  memoryType?: string;
  metadata?: Record<string, unknown>;
  namespace?: string;
  pinned?: boolean;
  tags?: string[];
}
