/**
 * Times in recall: the span a question names ("on 16 November, 2023", "in May 2023", "in the
 * summer of 2021", "last week"), and the span a memory speaks of (its own time, taken back by a
 * relative phrase it uses: "yesterday", "last month"). A question naming a date favours memories
 * whose span meets it; the words of the date are taken out of the text the arms search.
 */
export interface Span {
  start: number;
  end: number;
}

const DAY = 86_400_000;
const MONTHS = 'january february march april may june july august september october november december'.split(' ');
const MONTH = `(${MONTHS.map((m) => `${m}|${m.slice(0, 3)}`).join('|')})\\.?`;
const DAY_OF_MONTH = '(\\d{1,2})(?:st|nd|rd|th)?';
const YEAR = '((?:19|20)\\d{2})';
const SEASONS: Record<string, number> = { spring: 2, summer: 5, autumn: 8, fall: 8, winter: 11 };

const monthIndex = (name: string) => MONTHS.findIndex((m) => m.startsWith(name.toLowerCase().slice(0, 3)));
const utc = (y: number, m: number, d: number) => Date.UTC(y, m, d);
const daySpan = (y: number, m: number, d: number): Span => ({ start: utc(y, m, d), end: utc(y, m, d) + DAY - 1 });
const monthSpan = (y: number, m: number, part?: string): Span => {
  const end = utc(y, m + 1, 1) - 1;
  if (part === 'early') return { start: utc(y, m, 1), end: utc(y, m, 11) - 1 };
  if (part === 'mid') return { start: utc(y, m, 10), end: utc(y, m, 21) - 1 };
  if (part === 'late') return { start: utc(y, m, 20), end };
  return { start: utc(y, m, 1), end };
};

interface Pattern {
  re: RegExp;
  span: (m: RegExpExecArray, now: number) => Span;
}

// Most specific first: the first pattern that matches names the question's span.
const PATTERNS: Pattern[] = [
  { re: /\b(\d{4})-(\d{2})-(\d{2})\b/i, span: (m) => daySpan(+m[1]!, +m[2]! - 1, +m[3]!) },
  {
    re: new RegExp(`\\b(?:on |around |about )?(?:the )?${DAY_OF_MONTH}(?: of)? ${MONTH},? ${YEAR}\\b`, 'i'),
    span: (m) => daySpan(+m[3]!, monthIndex(m[2]!), +m[1]!),
  },
  {
    re: new RegExp(`\\b(?:on |around |about )?${MONTH} ${DAY_OF_MONTH},? ${YEAR}\\b`, 'i'),
    span: (m) => daySpan(+m[3]!, monthIndex(m[1]!), +m[2]!),
  },
  {
    re: new RegExp(`\\b(?:in |during )?(?:(early|mid|late)[- ])?${MONTH},? ${YEAR}\\b`, 'i'),
    span: (m) => monthSpan(+m[3]!, monthIndex(m[2]!), m[1]?.toLowerCase()),
  },
  {
    re: new RegExp(`\\b(?:in |during )?(?:the )?(spring|summer|autumn|fall|winter)(?: of)? ${YEAR}\\b`, 'i'),
    span: (m) => {
      const first = SEASONS[m[1]!.toLowerCase()] as number;
      const y = +m[2]!;
      // Winter 2021 runs December 2021 to February 2022.
      return { start: utc(y, first, 1), end: utc(y, first + 3, 1) - 1 };
    },
  },
  {
    re: /\b(?:in|during) (?:the year )?((?:19|20)\d{2})\b/i,
    span: (m) => ({ start: utc(+m[1]!, 0, 1), end: utc(+m[1]! + 1, 0, 1) - 1 }),
  },
  { re: /\byesterday\b/i, span: (_, now) => ({ start: now - 2 * DAY, end: now }) },
  { re: /\blast week\b/i, span: (_, now) => ({ start: now - 14 * DAY, end: now }) },
  { re: /\blast month\b/i, span: (_, now) => ({ start: now - 62 * DAY, end: now }) },
];

/** The span a question names and the question without those words; no span when it names none. */
export function questionTime(query: string, now: number): { span?: Span; text: string } {
  for (const p of PATTERNS) {
    const m = p.re.exec(query);
    if (!m) continue;
    const span = p.span(m, now);
    if (!Number.isFinite(span.start) || !Number.isFinite(span.end)) continue;
    const text = `${query.slice(0, m.index)} ${query.slice(m.index + m[0].length)}`.replace(/\s+/g, ' ').trim();
    return { span, text: text.length > 0 ? text : query };
  }
  return { text: query };
}

// How far back a memory's relative phrase takes its time ("yesterday" 1 day, "last month" ~2 months).
const LOOKBACK: [RegExp, number][] = [
  [/\b(last|past) (month|few weeks)\b/i, 62],
  [/\b(last|past) (week|weekend)\b|\bfew days ago\b/i, 14],
  [/\b(two|three|couple of|2|3) days ago\b|\bon (monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b/i, 7],
  [/\byesterday\b|\blast night\b/i, 2],
];

/** The span a memory speaks of: from its time back as far as its relative phrase reaches. */
export function memorySpan(time: number, content: string): Span {
  for (const [re, days] of LOOKBACK) if (re.test(content)) return { start: time - days * DAY, end: time + DAY };
  return { start: time - DAY, end: time + DAY };
}

/** 1 when the spans meet, falling by half for every week between them. */
export function timeMatch(question: Span, memory: Span): number {
  const gap = Math.max(0, memory.start - question.end, question.start - memory.end);
  return 0.5 ** (gap / (7 * DAY));
}

/** Metadata keys that hold a memory's own time, most specific first. */
const TIME_KEYS = ['occurred_at', 'session_date', 'session_time', 'date', 'timestamp'];

/**
 * A memory's own time: the first of TIME_KEYS in its metadata that reads as a time (ISO 8601,
 * epoch milliseconds, or a date as people write it: "1:56 pm on 8 May, 2023"), else valid_from,
 * else when it was created.
 */
export function memoryTime(metadata: unknown, validFrom: Date | null, createdAt: Date): number {
  const meta = (metadata ?? {}) as Record<string, unknown>;
  for (const key of TIME_KEYS) {
    const t = readTime(meta[key]);
    if (t !== undefined) return t;
  }
  return (validFrom ?? createdAt).getTime();
}

function readTime(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (typeof v !== 'string' || v.trim() === '') return undefined;
  const t = new Date(v).getTime();
  if (Number.isFinite(t)) return t;
  // Written dates name a day: its start, as for a question (the hour is finer than spans match).
  return questionTime(v, Date.now()).span?.start;
}
