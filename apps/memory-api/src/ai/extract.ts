/**
 * Rule-based extraction of facts, entities and relationships from free text. No model: the same
 * text always gives the same answer, fast enough for the write path. It finds what surface form
 * gives away (capitalised names, emails, URLs, dates, numbers with units) and relationships of the
 * plain "X uses Y" kind; anything subtler needs the optional model (llm-extract.ts).
 */

export type EntityKind = 'name' | 'email' | 'url' | 'date' | 'quantity';

export interface Entity {
  text: string;
  kind: EntityKind;
}

export interface Relationship {
  subject: string;
  predicate: string;
  object: string;
}

export interface Fact {
  text: string;
  entities: Entity[];
  relationships: Relationship[];
}

export interface Extraction {
  facts: Fact[];
  /** Distinct entities over all facts, with how many facts mention each. */
  entities: (Entity & { mentions: number })[];
  relationships: Relationship[];
}

const MONTHS = 'January|February|March|April|May|June|July|August|September|October|November|December';
const MONTH_ABBR = 'Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec';
const MONTH = `(?:${MONTHS}|${MONTH_ABBR})\\.?`;

const EMAIL = /\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b/g;
const URL_PATTERN = /\bhttps?:\/\/[^\s<>"'`]+/g;
const DATE = new RegExp(
  [
    '\\b\\d{4}-\\d{2}-\\d{2}(?:[T ]\\d{2}:\\d{2}(?::\\d{2})?(?:Z|[+-]\\d{2}:\\d{2})?)?\\b',
    `\\b\\d{1,2}(?:st|nd|rd|th)? ${MONTH},? \\d{4}\\b`,
    `\\b${MONTH} \\d{1,2}(?:st|nd|rd|th)?,? \\d{4}\\b`,
    `\\b${MONTH} \\d{4}\\b`,
  ].join('|'),
  'g',
);
/** Units a quantity may carry, grouped by kind (the alternation tries them in this order). */
const UNITS = `
  % percent
  ms milliseconds? s secs? seconds? mins? minutes? h hrs? hours? days? weeks? months? years?
  B KB MB GB TB KiB MiB GiB TiB
  mm cm m km miles? g kg lbs? l ml
  Hz kHz MHz GHz W kW V
  USD EUR GBP dollars? euros?
  cores? CPUs? GPUs? users? people requests? rps qps employees? items?
`
  .trim()
  .split(/\s+/)
  .join('|');
const QUANTITY = new RegExp(
  `(?:[$€£]\\s?\\d[\\d,]*(?:\\.\\d+)?(?:\\s?(?:k|m|bn|million|billion))?)|(?:\\b\\d[\\d,]*(?:\\.\\d+)?\\s?(?:${UNITS})(?![\\w]))`,
  'g',
);

/**
 * Capitalised words that open sentences or clauses without naming anything (articles, pronouns,
 * common imperatives). A capitalised run that is only these is not a name; a leading one is
 * dropped ("The Acme Corp" -> "Acme Corp", "Ask Grace Hopper" -> "Grace Hopper").
 */
const NOT_NAMES = new Set(
  `a an the this that these those there here it its i we you he she they our my your his her their
  in on at for from to of by with as and or but so if when while after before since until because
  also then now today yesterday tomorrow every each all some any no not never yes please note
  monday tuesday wednesday thursday friday saturday sunday ${MONTHS.toLowerCase().replaceAll('|', ' ')}
  is are was were be been do does did has have had will would can could should may might must
  what which who whom whose where why how first second next last
  ask tell call send email contact check see use make let remember ping meet talk thanks thank hi hello dear`
    .split(/\s+/)
    .filter(Boolean),
);

/** Words that may sit inside a name ("Bank of England", "Procter & Gamble"). */
const NAME_JOINERS = new Set(['of', 'de', 'van', 'von', 'der', 'la', 'le', 'du', 'da', '&']);

const NAME_TOKEN = /^[A-Z][\p{L}\d'’.-]*[\p{L}\d]$|^[A-Z]$/u;

/** Relationship verbs, longest first so "works at" wins over "is". The key is the normalised predicate. */
const PREDICATES: [string, string][] = [
  ['works_at', 'works at|worked at|works for|worked for|is employed by'],
  ['lives_in', 'lives in|lived in|is based in|is located in|located in'],
  ['part_of', 'is part of|belongs to'],
  ['depends_on', 'depends on|relies on|runs on'],
  ['reports_to', 'reports to'],
  ['prefers', 'prefers|preferred|would rather use'],
  ['likes', 'likes|loves|enjoys'],
  ['dislikes', 'dislikes|hates'],
  ['uses', 'uses|used|is using|switched to|migrated to'],
  ['owns', 'owns|maintains|manages|leads|runs'],
  ['created', 'created|wrote|built|founded'],
  ['is', 'is an?|is the|is|are|was|were'],
];
const PREDICATE_PATTERN = new RegExp(`^(.+?)\\s+(${PREDICATES.map(([, forms]) => forms).join('|')})\\s+(.+)$`, 'i');
const OBJECT_END = /\s*(?:[,;:(]|\s(?:and|but|because|which|who|so|since|while|when|although)\s).*$/i;
const LEADING_ARTICLE = /^(?:the|a|an|his|her|their|our|my|its)\s+/i;

/** Abbreviations after which a full stop does not end a sentence. */
const ABBREVIATIONS = /\b(?:e\.g|i\.e|etc|vs|Dr|Mr|Mrs|Ms|Prof|Inc|Ltd|Co|St|No|approx|cf)\.$/i;

/** Splits text into sentences: at . ! ? followed by a capital or digit, at blank lines and list bullets. */
export function splitSentences(text: string): string[] {
  const sentences: string[] = [];
  for (const block of text.split(/\n\s*\n|\n\s*(?:[-*•]|\d+[.)])\s+/)) {
    const flat = block.replace(/\s+/g, ' ').trim();
    if (!flat) continue;
    let start = 0;
    const boundary = /[.!?]+["')\]]?\s+(?=["'([]?[A-Z0-9])/g;
    for (let m = boundary.exec(flat); m; m = boundary.exec(flat)) {
      const candidate = flat.slice(start, m.index + m[0].trimEnd().length);
      if (ABBREVIATIONS.test(candidate)) continue;
      sentences.push(candidate.trim());
      start = m.index + m[0].length;
    }
    const rest = flat.slice(start).trim();
    if (rest) sentences.push(rest);
  }
  return sentences.map((s) => s.replace(/^[-*•]\s+/, '')).filter(Boolean);
}

function collect(pattern: RegExp, text: string, kind: EntityKind, out: Entity[], taken: [number, number][]) {
  for (const m of text.matchAll(pattern)) {
    const value = m[0].replace(/[.,;:!?)\]]+$/, '');
    const from = m.index ?? 0;
    const to = from + value.length;
    // A span already claimed by an earlier, more specific pattern (a URL's host, a date's year) is not counted twice.
    if (taken.some(([a, b]) => from < b && to > a)) continue;
    taken.push([from, to]);
    out.push({ text: value, kind });
  }
}

function names(text: string, taken: [number, number][]): Entity[] {
  const found: Entity[] = [];
  const tokens = [...text.matchAll(/[\p{L}\d&][\p{L}\d'’.&-]*/gu)];
  let run: { text: string; from: number; to: number }[] = [];
  const flush = () => {
    while (run.length > 0 && (NAME_JOINERS.has(run.at(-1)?.text ?? '') || isFiller(run.at(-1)?.text))) run.pop();
    while (run.length > 0 && isFiller(run[0]?.text)) run.shift();
    if (run.length > 0) {
      const from = run[0]?.from ?? 0;
      const to = run.at(-1)?.to ?? 0;
      const name = text.slice(from, to);
      // One capitalised word opening a sentence is usually just a capitalised word ("Deploys take
      // 12 minutes"); it counts as a name only as the subject of a relationship ("Paris is ...").
      const ambiguous = run.length === 1 && text.slice(0, from).trim() === '' && rawSubject(text) !== name;
      if (!ambiguous && !taken.some(([a, b]) => from < b && to > a)) found.push({ text: name, kind: 'name' });
    }
    run = [];
  };
  for (const t of tokens) {
    const word = t[0].replace(/[.’']+$/, '');
    const from = t.index ?? 0;
    const entry = { text: word, from, to: from + word.length };
    if (NAME_TOKEN.test(word)) {
      // A gap other than a single space (punctuation) ends the name.
      const prev = run.at(-1);
      if (prev && text.slice(prev.to, from) !== ' ') flush();
      run.push(entry);
    } else if (run.length > 0 && NAME_JOINERS.has(word) && text.slice(run.at(-1)?.to ?? 0, from) === ' ') {
      run.push(entry);
    } else {
      flush();
    }
  }
  flush();
  return found;
}

const isFiller = (word: string | undefined) => word === undefined || NOT_NAMES.has(word.toLowerCase());

/** Entities of one sentence, in order of kind: URLs and emails first, so their parts are not taken for names. */
export function extractEntities(sentence: string): Entity[] {
  const taken: [number, number][] = [];
  const out: Entity[] = [];
  collect(URL_PATTERN, sentence, 'url', out, taken);
  collect(EMAIL, sentence, 'email', out, taken);
  collect(DATE, sentence, 'date', out, taken);
  collect(QUANTITY, sentence, 'quantity', out, taken);
  out.push(...names(sentence, taken));
  return dedupe(out);
}

function dedupe(entities: Entity[]): Entity[] {
  const seen = new Set<string>();
  return entities.filter((e) => {
    const key = `${e.kind}:${e.text.toLowerCase()}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

const shorten = (phrase: string, words: number) => phrase.split(' ').slice(-words).join(' ');

const relationshipParts = (sentence: string) => PREDICATE_PATTERN.exec(sentence.replace(/[.!?]+$/, '').trim());

/** What stands before the relationship verb of a sentence, if it has one. */
const rawSubject = (sentence: string) => relationshipParts(sentence)?.[1]?.trim();

/** "X <verb> Y" relationships of one sentence; the subject is kept short (a name or a short phrase). */
export function extractRelationships(sentence: string, entities: Entity[]): Relationship[] {
  const m = relationshipParts(sentence);
  if (!m) return [];
  const [, left = '', verb = '', rawObject = ''] = m;
  const predicate = PREDICATES.find(([, forms]) => new RegExp(`^(?:${forms})$`, 'i').test(verb))?.[0] ?? 'related_to';
  // A name right before the verb is the subject ("... Alice Johnson works at"); else the last few words.
  const subjectName = entities.find((e) => e.kind === 'name' && left.endsWith(e.text));
  const subject = subjectName?.text ?? shorten(left.replace(LEADING_ARTICLE, ''), 4).replace(LEADING_ARTICLE, '');
  const object = rawObject.replace(OBJECT_END, '').replace(LEADING_ARTICLE, '').trim();
  if (!subject || !object || object.split(' ').length > 8) return [];
  return [{ subject, predicate, object }];
}

/** Sentences shorter than this many words are not facts (headings, fragments). */
const MIN_FACT_WORDS = 3;
const MAX_FACT_CHARS = 1000;

export function extractFacts(content: string, maxFacts: number): Extraction {
  const facts: Fact[] = [];
  const seen = new Set<string>();
  for (const sentence of splitSentences(content)) {
    if (facts.length >= maxFacts) break;
    const text = sentence.length > MAX_FACT_CHARS ? `${sentence.slice(0, MAX_FACT_CHARS - 1)}…` : sentence;
    if (text.split(' ').length < MIN_FACT_WORDS) continue;
    const key = text.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    const entities = extractEntities(text);
    facts.push({ text, entities, relationships: extractRelationships(text, entities) });
  }
  return summarise(facts);
}

/** The distinct entities and all relationships of a list of facts. */
export function summarise(facts: Fact[]): Extraction {
  const counts = new Map<string, Entity & { mentions: number }>();
  for (const fact of facts) {
    for (const e of fact.entities) {
      const key = `${e.kind}:${e.text.toLowerCase()}`;
      const known = counts.get(key);
      if (known) known.mentions++;
      else counts.set(key, { ...e, mentions: 1 });
    }
  }
  return {
    facts,
    entities: [...counts.values()].sort((a, b) => b.mentions - a.mentions),
    relationships: facts.flatMap((f) => f.relationships),
  };
}
