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

function clean(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const v = value.replace(/\0/g, '').trim().slice(0, VALUE_MAX);
  return v === '' ? undefined : v;
}

/**
 * The tags an event is counted under on its issue: the ones Sentry derives (environment, release,
 * level, server_name, transaction, user.*) and the SDK's own `tags` (an object or a list of pairs).
 */
export function eventTags(event: Json, level: string): [string, string][] {
  const tags = new Map<string, string>();
  const put = (key: string, raw: unknown) => {
    const value = clean(text(raw));
    if (value === undefined || tags.size >= TAGS_MAX || tags.has(key)) return;
    if (key.length === 0 || key.length > KEY_MAX || !KEY_SHAPE.test(key)) return;
    tags.set(key, value);
  };
  put('environment', event.environment);
  put('release', event.release);
  put('level', level);
  put('server_name', event.server_name);
  put('transaction', event.transaction);
  const user = asObject(event.user);
  if (user) {
    put('user.id', user.id);
    put('user.email', user.email);
    put('user.username', user.username);
    put('user.ip', user.ip_address);
  }
  const own = event.tags;
  if (Array.isArray(own)) {
    for (const pair of own) if (Array.isArray(pair)) put(String(pair[0]), pair[1]);
  } else {
    const object = asObject(own);
    if (object) for (const [key, value] of Object.entries(object)) put(key, value);
  }
  return [...tags];
}
