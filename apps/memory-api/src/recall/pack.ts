export interface PackItem {
  id: string;
  content: string;
}

export interface ContextPack<T extends PackItem> {
  selected: T[];
  skipped: { id: string; reason: 'excluded' | 'budget' }[];
  budget_chars: number;
  budget_used: number;
}

/**
 * Fills a character budget in rank order, deterministically: a result already injected
 * (`exclude_ids`) is skipped as `excluded`, one that does not fit as `budget`, and later, shorter
 * results may still fit after a long one was skipped.
 */
export function buildPack<T extends PackItem>(
  ranked: T[],
  budget: number,
  exclude: ReadonlySet<string>,
): ContextPack<T> {
  const selected: T[] = [];
  const skipped: ContextPack<T>['skipped'] = [];
  let used = 0;
  for (const item of ranked) {
    if (exclude.has(item.id)) {
      skipped.push({ id: item.id, reason: 'excluded' });
    } else if (used + item.content.length > budget) {
      skipped.push({ id: item.id, reason: 'budget' });
    } else {
      selected.push(item);
      used += item.content.length;
    }
  }
  return { selected, skipped, budget_chars: budget, budget_used: used };
}
