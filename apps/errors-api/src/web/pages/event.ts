import { utc } from '../format.ts';
import { type Html, html } from '../html.ts';

// biome-ignore lint/suspicious/noExplicitAny: an event is JSON as an SDK sent it; every read below checks its shape
type Json = any;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown) => (typeof v === 'string' ? v : v === undefined || v === null ? '' : JSON.stringify(v));
/** Sentry sends some lists as `{ values: [...] }` and some as plain arrays. */
const listOf = (v: unknown): Json[] => (Array.isArray(v) ? v : isObject(v) && Array.isArray(v.values) ? v.values : []);

function frame(f: Json) {
  const where = [f.filename ?? f.abs_path ?? f.module ?? '?', f.lineno, f.colno]
    .filter((x) => x !== undefined)
    .join(':');
  const context = typeof f.context_line === 'string';
  const lines = (from: number, list: unknown) =>
    listOf(list).map((line, i) => html`<tr><td class="ln">${from + i}</td><td><code>${text(line)}</code></td></tr>`);
  const pre = listOf(f.pre_context);
  const line = Number(f.lineno) || 0;
  return html`<li class="frame${f.in_app === true ? ' in-app' : ''}">
<div class="frame-head"><code class="fn">${text(f.function) || '<anonymous>'}</code> <span class="where">${where}</span>${f.in_app === true ? html` <span class="badge">in app</span>` : ''}</div>
${
  context
    ? html`<table class="source"><tbody>${lines(line - pre.length, pre)}
<tr class="current"><td class="ln">${line}</td><td><code>${text(f.context_line)}</code></td></tr>${lines(line + 1, f.post_context)}</tbody></table>`
    : ''
}</li>`;
}

const frameList = (list: unknown, view: string) =>
  html`<ol class="frames" data-frames="${view}">${listOf(list).slice().reverse().map(frame)}</ol>`;

/**
 * The frames, innermost first. Where source maps resolved them, the original frames lead and the
 * minified ones as the SDK sent them (`raw_stacktrace`) stay one click away, in a disclosure that
 * works without JavaScript.
 */
function frames(e: Json) {
  const original = frameList(e.stacktrace?.frames, 'original');
  if (listOf(e.raw_stacktrace?.frames).length === 0) return original;
  return html`<p class="meta">Frames resolved with the uploaded source maps.</p>${original}
<details class="minified"><summary>Minified frames, as sent</summary>${frameList(e.raw_stacktrace.frames, 'minified')}</details>`;
}

function exceptions(event: Json) {
  // The chain as sent lists the cause first; the error raised last is what the reader wants first.
  const values = listOf(event.exception).slice().reverse();
  if (values.length === 0) return '';
  return html`<section><h3>Exception${values.length > 1 ? 's' : ''}</h3>${values.map(
    (
      e,
      i,
    ) => html`<div class="exception"><h4>${i > 0 ? html`<span class="caused">caused by</span> ` : ''}${text(e.type) || 'Error'}: ${text(e.value)}</h4>
${e.mechanism ? html`<p class="meta">mechanism ${text(e.mechanism.type)}${e.mechanism.handled === false ? ', unhandled' : ''}</p>` : ''}
${frames(e)}</div>`,
  )}</section>`;
}

function table(title: string, rows: [string, unknown][]): Html | string {
  if (rows.length === 0) return '';
  return html`<section><h3>${title}</h3><table class="kv"><tbody>${rows.map(
    ([k, v]) => html`<tr><th scope="row">${k}</th><td>${text(v)}</td></tr>`,
  )}</tbody></table></section>`;
}

function breadcrumbs(event: Json) {
  const crumbs = listOf(event.breadcrumbs);
  if (crumbs.length === 0) return '';
  return html`<section><h3>Breadcrumbs</h3><table class="list crumbs"><thead><tr><th scope="col">Time</th><th scope="col">Category</th><th scope="col">Level</th><th scope="col">Message</th></tr></thead><tbody>${crumbs.map(
    (c) =>
      html`<tr><td>${typeof c.timestamp === 'number' ? utc(new Date(c.timestamp * 1000).toISOString()) : text(c.timestamp)}</td><td>${text(c.category ?? c.type)}</td><td>${text(c.level)}</td><td>${text(c.message ?? (c.data ? c.data : ''))}</td></tr>`,
  )}</tbody></table></section>`;
}

const tags = (event: Json): [string, unknown][] =>
  Array.isArray(event.tags)
    ? event.tags.filter(Array.isArray).map((pair: unknown[]) => [text(pair[0]), pair[1]])
    : isObject(event.tags)
      ? Object.entries(event.tags)
      : [];

function contexts(event: Json) {
  if (!isObject(event.contexts)) return '';
  return Object.entries(event.contexts)
    .filter(([, v]) => isObject(v))
    .map(([name, v]) => table(`Context: ${name}`, Object.entries(v as object)));
}

function message(event: Json): string {
  if (typeof event.message === 'string') return event.message;
  if (isObject(event.message)) return text(event.message.formatted ?? event.message.message);
  if (isObject(event.logentry)) return text(event.logentry.formatted ?? event.logentry.message);
  return '';
}

function requestRows(request: Record<string, unknown>): [string, unknown][] {
  const rows: [string, unknown][] = [
    ['method', request.method],
    ['url', request.url],
    ['query', request.query_string],
  ];
  if (isObject(request.headers))
    rows.push(...Object.entries(request.headers).map(([k, v]): [string, unknown] => [`header ${k}`, v]));
  return rows.filter(([, v]) => v !== undefined);
}

/** One stored event as a reader of a stack trace wants it, from whatever an SDK sent. */
export function eventView(event: Json) {
  if (!isObject(event)) return html`<p>This event's payload could not be read.</p>`;
  const request = isObject(event.request) ? event.request : undefined;
  const user = isObject(event.user) ? event.user : undefined;
  const sdk = isObject(event.sdk) ? event.sdk : undefined;
  const msg = message(event);
  return html`<div class="event">
${msg ? html`<section><h3>Message</h3><p class="message">${msg}</p></section>` : ''}
${exceptions(event)}
${breadcrumbs(event)}
${table('Tags', tags(event))}
${request ? table('Request', requestRows(request)) : ''}
${user ? table('User', Object.entries(user)) : ''}
${contexts(event)}
${
  sdk
    ? table('SDK', [
        ['name', sdk.name],
        ['version', sdk.version],
      ])
    : ''
}
${table(
  'Event',
  [
    ['event id', event.event_id],
    ['platform', event.platform],
    ['release', event.release],
    ['environment', event.environment],
    ['server', event.server_name],
  ].filter(([, v]) => v !== undefined) as [string, unknown][],
)}
</div>`;
}
