import { createHash } from 'node:crypto';
import {
  type ExceptionValue,
  eventMessage,
  fileBasename,
  firstLine,
  type Json,
  realExceptions,
  type StackFrame,
} from './event-shape.ts';

export type GroupingMethod = 'fingerprint' | 'stacktrace' | 'exception' | 'message' | 'fallback';

/** Why events grouped: stored on the issue and shown in its detail. */
export interface Grouping {
  method: GroupingMethod;
  components: string[];
  hash: string;
}

/**
 * Variable parts of messages replaced by placeholders, so "user 42 not found" and "user 7 not
 * found" are one issue. Order matters: URLs and e-mails before the numbers inside them.
 */
const VARIABLE_PARTS: [RegExp, string][] = [
  [/\b[a-z][a-z0-9+.-]*:\/\/[^\s'"<>]+/gi, '<url>'],
  [/\b[\w.+-]+@[\w-]+(\.[\w-]+)+\b/g, '<email>'],
  [/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '<uuid>'],
  [/\b\d{4}-\d{2}-\d{2}([tT ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?([zZ]|[+-]\d{2}:?\d{2})?)?\b/g, '<date>'],
  [/\b\d{1,2}:\d{2}:\d{2}(\.\d+)?\b/g, '<time>'],
  [/\b(?:\d{1,3}\.){3}\d{1,3}(?::\d+)?\b/g, '<ip>'],
  [/\b(?:[0-9a-f]{1,4}:){2,7}[0-9a-f]{1,4}\b/gi, '<ip>'],
  [/\b0x[0-9a-f]+\b/gi, '<hex>'],
  [/\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{8,}\b/gi, '<hex>'],
  [/-?\b\d+(\.\d+)?\b/g, '<num>'],
];

export function parameterize(text: string): string {
  let out = text;
  for (const [pattern, placeholder] of VARIABLE_PARTS) out = out.replace(pattern, placeholder);
  return out;
}

function frameComponent(frame: StackFrame): string | undefined {
  const where = frame.module ?? fileBasename(frame);
  const fn = frame.function;
  if (!where && !fn) return undefined;
  // Bundlers put content hashes into file names; a redeploy must not split every issue.
  return `${(where ?? '?').replace(/\b[0-9a-f]{8,}\b/gi, '<hex>')}:${fn ?? '?'}`;
}

function framesOf(exception: ExceptionValue, anyInApp: boolean): string[] {
  const chosen = anyInApp ? exception.frames.filter((f) => f.inApp === true) : exception.frames;
  const parts: string[] = [];
  for (const frame of chosen) {
    const part = frameComponent(frame);
    // Recursion shows up as the same frame repeated; one copy groups the same as a hundred.
    if (part && parts[parts.length - 1] !== part) parts.push(part);
  }
  return parts;
}

function exceptionName(e: ExceptionValue): string {
  return e.type ?? 'Error';
}

function defaultGrouping(event: Json): Omit<Grouping, 'hash'> {
  const exceptions = realExceptions(event);
  if (exceptions.length > 0) {
    const anyInApp = exceptions.some((e) => e.frames.some((f) => f.inApp === true));
    const withFrames = exceptions.map((e) => ({ e, frames: framesOf(e, anyInApp) }));
    if (withFrames.some((x) => x.frames.length > 0)) {
      return {
        method: 'stacktrace',
        components: withFrames.flatMap(({ e, frames }) =>
          frames.length > 0 ? [exceptionName(e), ...frames] : [exceptionName(e), parameterize(e.value ?? '')],
        ),
      };
    }
    return {
      method: 'exception',
      components: exceptions.flatMap((e) => [exceptionName(e), parameterize(e.value ?? '')]),
    };
  }
  const message = eventMessage(event);
  if (message) {
    return { method: 'message', components: [message.template ?? parameterize(message.formatted)] };
  }
  return { method: 'fallback', components: [parameterize(eventTitle(event))] };
}

function customFingerprint(event: Json): string[] | undefined {
  const raw = event.fingerprint;
  if (!Array.isArray(raw) || raw.length === 0) return undefined;
  const parts = raw.filter((p) => typeof p === 'string' || typeof p === 'number').map(String);
  return parts.length > 0 ? parts : undefined;
}

const DEFAULT_MARKER = /^\{\{\s*default\s*\}\}$/;

export function groupEvent(event: Json): Grouping {
  const custom = customFingerprint(event);
  let grouping: Omit<Grouping, 'hash'>;
  if (custom) {
    const defaults = custom.some((p) => DEFAULT_MARKER.test(p)) ? defaultGrouping(event).components : [];
    grouping = {
      method: 'fingerprint',
      components: custom.flatMap((p) => (DEFAULT_MARKER.test(p) ? defaults : [p])),
    };
  } else {
    grouping = defaultGrouping(event);
  }
  const hash = createHash('sha256')
    .update(`${grouping.method}\n${grouping.components.join('\n')}`)
    .digest('hex');
  return { ...grouping, hash };
}

export function eventTitle(event: Json): string {
  const exceptions = realExceptions(event);
  const primary = exceptions[exceptions.length - 1];
  if (primary) {
    const value = primary.value ? firstLine(primary.value) : '';
    if (primary.type && value) return firstLine(`${primary.type}: ${value}`);
    return primary.type ?? (value || 'Error');
  }
  const message = eventMessage(event);
  if (message) return firstLine(message.formatted) || '<empty message>';
  return '<unlabeled event>';
}

/** The innermost in-app frame of the primary exception: where the user's code went wrong. */
export function eventCulprit(event: Json): string | undefined {
  const exceptions = realExceptions(event);
  const frames = exceptions[exceptions.length - 1]?.frames ?? [];
  const inApp = frames.filter((f) => f.inApp === true);
  const frame = (inApp.length > 0 ? inApp : frames).at(-1);
  if (!frame) return typeof event.transaction === 'string' ? firstLine(event.transaction) : undefined;
  const where = frame.module ?? frame.filename ?? frame.absPath ?? '?';
  return firstLine(`${where} in ${frame.function ?? '?'}`);
}
