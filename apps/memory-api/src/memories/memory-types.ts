export const MEMORY_TYPES = [
  'fact',
  'procedure',
  'preference',
  'decision',
  'context',
  'note',
  'insight',
  'reference',
  'event',
] as const;
export type MemoryType = (typeof MEMORY_TYPES)[number];

export function isMemoryType(value: unknown): value is MemoryType {
  return typeof value === 'string' && (MEMORY_TYPES as readonly string[]).includes(value);
}

export const invalidTypeMessage = (value: unknown) =>
  `unknown memory type ${JSON.stringify(value)}; valid types: ${MEMORY_TYPES.join(', ')}`;

// Checked in this order; the first that matches wins. Cheap word rules, no model on the write path.
const RULES: [MemoryType, RegExp][] = [
  [
    'procedure',
    /^\s*(how to|to \w+[^.]*?,\s*(run|use|open|go|click|type))|\b(step \d|steps?:|first,? .+ then|run `|npm run|install(ed)? with)\b|^\s*\d+[.)]\s/im,
  ],
  ['decision', /\b(decided|decision|we chose|chose to|agreed (to|on)|will use|going with|settled on|opted)\b/i],
  ['preference', /\b(prefers?|preferred|likes?|loves?|hates?|dislikes?|favou?rite|would rather|enjoys?)\b/i],
  ['insight', /\b(learned|learnt|realised|realized|turns out|lesson|insight|noticed that)\b/i],
  ['reference', /(https?:\/\/\S+)|\b(see the (docs|documentation|wiki|runbook))\b/i],
  [
    'event',
    /\b(yesterday|today|tomorrow|last (week|month|night|year)|on (mon|tues|wednes|thurs|fri|satur|sun)day|happened|meeting (on|at)|\d{4}-\d{2}-\d{2})\b/i,
  ],
  ['context', /\b(currently|right now|working on|at the moment|this sprint|this project)\b/i],
];

/** The type of a memory whose writer gave none: the first rule that matches, else `fact`. */
export function inferMemoryType(content: string): MemoryType {
  for (const [type, rule] of RULES) if (rule.test(content)) return type;
  return 'fact';
}
