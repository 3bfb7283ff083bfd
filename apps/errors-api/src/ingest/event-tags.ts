import { asObject, type Json } from './event-shape.ts';

/** Sentry's limits: longer keys or values are dropped (keys) or cut (values), as its ingest does. */
const KEY_MAX = 32;
const VALUE_MAX = 200;
const TAGS_MAX = 50;
const KEY_SHAPE = /^[a-zA-Z0-9_.:-]+$/;

const text = (v: unknown): string | undefined => {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return undefined;
};

/** The release and environment an event names, cleaned the way tags are (null when absent). */
export function releaseOf(event: Json): string | null {
  return clean(text(event.release)) ?? null;
}
export function environmentOf(event: Json): string | null {
  return clean(text(event.environment)) ?? null;
}

// Ingest calls these for every event: the common case (no NUL, nothing to cut) allocates nothing.
function clean(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  let v = (value.includes('\0') ? value.replace(/\0/g, '') : value).trim();
  if (v.length > VALUE_MAX) v = v.slice(0, VALUE_MAX);
  return v === '' ? undefined : v;
}

/**
 * The tags an event is counted under on its issue: the ones Sentry derives (environment, release,
 * level, server_name, transaction, user.*) and the SDK's own `tags` (an object or a list of pairs).
 */
export function eventTags(event: Json, level: string): [string, string][] {
  const tags: [string, string][] = [];
  // Sentry's own keys are valid and distinct: only their values need cleaning.
  const derived = (key: string, raw: unknown) => {
    const value = clean(text(raw));
    if (value !== undefined) tags.push([key, value]);
  };
  derived('environment', event.environment);
  derived('release', event.release);
  derived('level', level);
  derived('server_name', event.server_name);
  derived('transaction', event.transaction);
  const user = asObject(event.user);
  if (user) {
    derived('user.id', user.id);
    derived('user.email', user.email);
    derived('user.username', user.username);
    derived('user.ip', user.ip_address);
  }
  const own = (key: string, raw: unknown) => {
    if (tags.length >= TAGS_MAX || key.length === 0 || key.length > KEY_MAX || !KEY_SHAPE.test(key)) return;
    const value = clean(text(raw));
    if (value === undefined || tags.some((t) => t[0] === key)) return;
    tags.push([key, value]);
  };
  const sent = event.tags;
  if (Array.isArray(sent)) {
    for (const pair of sent) if (Array.isArray(pair)) own(String(pair[0]), pair[1]);
  } else {
    const object = asObject(sent);
    if (object) for (const key in object) own(key, object[key]);
  }
  return tags;
}
