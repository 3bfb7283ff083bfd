import { FACT_KINDS, type FactKind, PEOPLE, SMALL_TALK, WHEN } from './facts.ts';

/**
 * Long multi-session conversations between two named people, generated from a seed, with
 * questions of four kinds whose gold answers are turn ids. Built to fail the way real
 * conversations fail a search engine (issue 16): every turn starts with its speaker's name, most
 * turns are small talk (many short, many naming the other person), a fact is often told in the
 * reply to a question that holds the topic's words, turns say "yesterday" while questions name the
 * date, questions paraphrase the turn, and other turns share the topic's words without the answer.
 */
export interface Turn {
  id: string;
  speaker: string;
  text: string;
  session: number;
  /** The session's date (YYYY-MM-DD): what a chat client would store as metadata. */
  sessionDate: string;
}

export type QuestionKind = 'single-hop' | 'multi-hop' | 'temporal' | 'open-domain';

export interface Question {
  kind: QuestionKind;
  text: string;
  gold: string[];
}

export interface Conversation {
  namespace: string;
  people: [string, string];
  turns: Turn[];
  questions: Question[];
}

interface Told {
  person: string;
  kind: FactKind;
  value: { value: string; general: string };
  turnId: string;
  eventDate: Date;
}

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const DAY_MS = 86_400_000;
const SESSIONS = 40;

function rng(seed: number) {
  let state = seed >>> 0 || 1;
  const next = () => {
    state = (Math.imul(state, 1_103_515_245) + 12_345) & 0x7fffffff;
    return state / 0x7fffffff;
  };
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)] as T;
  return { next, pick };
}

const isoDay = (d: Date) => d.toISOString().slice(0, 10);
const ordinal = (n: number) =>
  `${n}${n % 10 === 1 && n !== 11 ? 'st' : n % 10 === 2 && n !== 12 ? 'nd' : n % 10 === 3 && n !== 13 ? 'rd' : 'th'}`;
const season = (m: number) => ['winter', 'spring', 'summer', 'autumn'][Math.floor(((m + 1) % 12) / 3)] as string;

/** A date as a question would name it, in one of several forms, precise or loose. */
function sayDate(d: Date, pick: <T>(xs: readonly T[]) => T): string {
  const day = d.getUTCDate();
  const month = MONTHS[d.getUTCMonth()] as string;
  const year = d.getUTCFullYear();
  return pick([
    `on ${day} ${month}, ${year}`,
    `on ${month} ${ordinal(day)}, ${year}`,
    `on ${day} ${month} ${year}`,
    `in ${month} ${year}`,
    `in early ${month} ${year}`,
    `around ${month} ${day}, ${year}`,
    `in the ${season(d.getUTCMonth())} of ${year}`,
  ]);
}

const fill = (template: string, vars: Record<string, string>) =>
  template.replace(/\{(\w+)\}/g, (_, k: string) => vars[k] ?? '');

/** One conversation: two people, SESSIONS sessions a few days to three weeks apart. */
export function generateConversation(index: number, seed: number): Conversation {
  const { next, pick } = rng(seed * 7919 + index * 104_729);
  const a = PEOPLE[index % PEOPLE.length] as string;
  const b = PEOPLE[(index + 1 + (index % 7)) % PEOPLE.length] as string;
  const people: [string, string] = [a, b];
  const turns: Turn[] = [];
  const told: Told[] = [];
  // Each person tells each kind of fact once or twice (twice: only a date tells the two apart).
  const agenda: { person: string; kind: FactKind }[] = [];
  for (const person of people) {
    for (const kind of FACT_KINDS) {
      const times = next() < 0.3 ? 2 : 1;
      for (let i = 0; i < times; i++) agenda.push({ person, kind });
    }
  }
  agenda.sort(() => next() - 0.5);
  const usedValues = new Map<string, Set<string>>();
  let date = new Date(Date.UTC(2022 + (index % 2), Math.floor(next() * 12), 1 + Math.floor(next() * 27)));
  const perSession = Math.ceil(agenda.length / SESSIONS);
  for (let s = 0; s < SESSIONS; s++) {
    date = new Date(date.getTime() + (4 + Math.floor(next() * 18)) * DAY_MS);
    const sessionDate = isoDay(date);
    let t = 0;
    const say = (speaker: string, text: string) => {
      const turn = { id: `c${index}:s${s}:t${t++}`, speaker, text: `${speaker}: ${text}`, session: s, sessionDate };
      turns.push(turn);
      return turn;
    };
    const other = (p: string) => (p === a ? b : a);
    // One or two lines of small talk: the same few lines said over and over, as in real chats.
    const smallTalk = (speaker: string) => {
      const line = next() < 0.35 ? `${pick(SMALL_TALK)} ${pick(SMALL_TALK)}` : pick(SMALL_TALK);
      return say(speaker, fill(line, { O: other(speaker) }));
    };
    let speaker = next() < 0.5 ? a : b;
    smallTalk(speaker);
    smallTalk(other(speaker));
    for (const item of agenda.slice(s * perSession, (s + 1) * perSession)) {
      const used = usedValues.get(`${item.person}/${item.kind.kind}`) ?? new Set<string>();
      const value = pick(item.kind.values.filter((v) => !used.has(v.value)));
      used.add(value.value);
      usedValues.set(`${item.person}/${item.kind.kind}`, used);
      const when = pick(WHEN);
      const vars = { v: value.value, g: value.general, when: when.say, O: other(item.person) };
      for (let i = Math.floor(next() * 6); i > 0; i--) smallTalk(next() < 0.5 ? a : b);
      if (next() < 0.5) say(pick(people), pick(item.kind.distract));
      let turn: Turn;
      if (next() < 0.45) {
        say(other(item.person), pick(item.kind.ask));
        turn = say(item.person, fill(pick(item.kind.reply), vars));
      } else {
        turn = say(item.person, fill(pick(item.kind.tell), vars));
      }
      told.push({ ...item, value, turnId: turn.id, eventDate: new Date(date.getTime() - when.daysBefore * DAY_MS) });
      smallTalk(other(item.person));
      speaker = item.person;
    }
    for (let i = 1 + Math.floor(next() * 3); i > 0; i--) smallTalk(speaker === a ? b : a);
  }
  return { namespace: `conversation-${index}`, people, turns, questions: questionsFor(told, pick, next) };
}

function questionsFor(told: Told[], pick: <T>(xs: readonly T[]) => T, next: () => number): Question[] {
  const questions: Question[] = [];
  const byPersonKind = new Map<string, Told[]>();
  for (const f of told) {
    const key = `${f.person}/${f.kind.kind}`;
    byPersonKind.set(key, [...(byPersonKind.get(key) ?? []), f]);
  }
  for (const facts of byPersonKind.values()) {
    const first = facts[0] as Told;
    const vars = (f: Told) => ({ P: f.person, v: f.value.value, g: f.value.general });
    if (facts.length === 1) {
      questions.push({ kind: 'single-hop', text: fill(pick(first.kind.question), vars(first)), gold: [first.turnId] });
      if (next() < 0.6) {
        questions.push({ kind: 'open-domain', text: fill(pick(first.kind.open), vars(first)), gold: [first.turnId] });
      }
    } else {
      // Two of a kind: a question that names the date picks one; asking for both is multi-hop.
      for (const f of facts) {
        const base = fill(pick(f.kind.question), vars(f)).replace(/\?$/, '');
        questions.push({ kind: 'temporal', text: `${base} ${sayDate(f.eventDate, pick)}?`, gold: [f.turnId] });
      }
      questions.push({
        kind: 'multi-hop',
        text: fill(pick(first.kind.question), vars(first)),
        gold: facts.map((f) => f.turnId),
      });
    }
    for (const f of facts) {
      if (next() < 0.3) questions.push({ kind: 'temporal', text: fill(pick(f.kind.when), vars(f)), gold: [f.turnId] });
    }
  }
  // Questions that gather a person's facts of one group ("What hobbies has Tim taken up?").
  const groups: Record<string, string[]> = {
    hobbies: ['What hobbies has {P} taken up?', 'What does {P} like to do in free time?'],
    health: ["What has been going on with {P}'s health and fitness?", 'How has {P} been keeping active?'],
    home: ['What has changed at home for {P}?', 'What new things does {P} have at home?'],
  };
  const people = [...new Set(told.map((f) => f.person))];
  for (const person of people) {
    for (const [group, templates] of Object.entries(groups)) {
      const facts = told.filter((f) => f.person === person && f.kind.group === group);
      if (facts.length < 2) continue;
      questions.push({
        kind: 'multi-hop',
        text: fill(pick(templates), { P: person }),
        gold: facts.map((f) => f.turnId),
      });
    }
  }
  return questions;
}

export function generateConversations(count: number, seed: number): Conversation[] {
  return Array.from({ length: count }, (_, i) => generateConversation(i, seed));
}
