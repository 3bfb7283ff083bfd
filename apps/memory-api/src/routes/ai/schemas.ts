import { Type } from 'typebox';
import { RECALL_STRATEGIES } from '../../config.ts';
import {
  Fraction,
  Limit,
  MemoryIds,
  MemoryType,
  Namespace,
  OptBool,
  OptText,
  Strict,
  Tags,
} from '../../schemas/fields.ts';

/** Bodies of /extract, /context and /dream. */
export const MAX_FACTS_LIMIT = 200;
const opt = Type.Optional;

export const extractBody = Strict({
  content: Type.String({ minLength: 1, maxLength: 200_000 }),
  max_facts: Limit(MAX_FACTS_LIMIT, 'maximum facts to extract'),
  model: OptText('extraction model (needs EXTRACT_LLM_URL)'),
  namespace: Namespace,
  tags: Tags,
  type: opt(MemoryType),
  store: OptBool('false: only show what would be extracted'),
});

export const contextBody = Strict({
  query: Type.String({ maxLength: 10_000 }),
  namespace: Namespace,
  budget_chars: Limit(1_000_000, 'maximum length of the block (default 4000)'),
  limit: Limit(100),
  tags: Tags,
  strategy: OptText(`one of ${RECALL_STRATEGIES.join(', ')}`),
  min_score: Fraction('minimum score (default 0.5, as strict)'),
  strict: OptBool('false lets in memories scoring below 0.5 when min_score is not set'),
  exclude_ids: MemoryIds('memory ids to leave out'),
});

export const dreamBody = Strict({
  namespace: Namespace,
  dry_run: OptBool(),
  duplicate_threshold: Fraction('duplicate threshold'),
  contradiction_threshold: Fraction('contradiction threshold'),
  min_mentions: Limit(10_000, 'recurring entity threshold'),
});
