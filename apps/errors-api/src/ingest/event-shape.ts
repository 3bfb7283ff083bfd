/** Reading the loosely typed event JSON that SDKs send, without trusting any field's type. */

export type Json = Record<string, unknown>;

export interface StackFrame {
  function?: string;
  module?: string;
  filename?: string;
  absPath?: string;
  inApp?: boolean;
}

export interface ExceptionValue {
  type?: string;
  value?: string;
  synthetic: boolean;
  frames: StackFrame[];
}

export const LEVELS = ['fatal', 'error', 'warning', 'info', 'debug'] as const;
export type Level = (typeof LEVELS)[number];

export const asObject = (v: unknown): Json | undefined =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined;
const asString = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

export function eventLevel(event: Json): Level {
  const raw = typeof event.level === 'string' ? event.level.toLowerCase() : 'error';
  if (raw === 'warn') return 'warning';
  if (raw === 'critical') return 'fatal';
  if (raw === 'log') return 'info';
  return (LEVELS as readonly string[]).includes(raw) ? (raw as Level) : 'error';
}

function readFrames(stacktrace: unknown): StackFrame[] {
  const frames = asObject(stacktrace)?.frames;
  if (!Array.isArray(frames)) return [];
  return frames.map((raw) => {
    const f = asObject(raw) ?? {};
    return {
      function: asString(f.function),
      module: asString(f.module),
      filename: asString(f.filename),
      absPath: asString(f.abs_path),
      inApp: typeof f.in_app === 'boolean' ? f.in_app : undefined,
    };
  });
}

/** Exceptions oldest cause first, the primary one last, as SDKs order them. */
export function eventExceptions(event: Json): ExceptionValue[] {
  const container = event.exception;
  const values = Array.isArray(container) ? container : asObject(container)?.values;
  if (!Array.isArray(values)) return [];
  return values.flatMap((raw) => {
    const e = asObject(raw);
    if (!e) return [];
    return [
      {
        type: asString(e.type),
        value: typeof e.value === 'string' ? e.value : e.value === undefined ? undefined : JSON.stringify(e.value),
        synthetic: asObject(e.mechanism)?.synthetic === true,
        frames: readFrames(e.stacktrace),
      },
    ];
  });
}

export interface EventMessage {
  /** The message as shown. */
  formatted: string;
  /** The template before parameters were filled in, when the SDK sent one. */
  template?: string;
}

function readMessage(raw: unknown): EventMessage | undefined {
  if (typeof raw === 'string') return raw.trim() === '' ? undefined : { formatted: raw };
  const m = asObject(raw);
  if (!m) return undefined;
  const formatted = asString(m.formatted) ?? asString(m.message);
  if (!formatted) return undefined;
  const hasParams = Array.isArray(m.params) ? m.params.length > 0 : asObject(m.params) !== undefined;
  const template = hasParams ? asString(m.message) : undefined;
  return template ? { formatted, template } : { formatted };
}

export function eventMessage(event: Json): EventMessage | undefined {
  return readMessage(event.logentry) ?? readMessage(event.message);
}

/** Exceptions that describe the error: a captured message's synthetic, typeless exception does not. */
export function realExceptions(event: Json): ExceptionValue[] {
  const all = eventExceptions(event);
  if (eventMessage(event) === undefined) return all;
  return all.filter((e) => !(e.synthetic && e.type === undefined));
}

export function firstLine(text: string, max = 200): string {
  const line = text.split('\n', 1)[0]?.trim() ?? '';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

export function fileBasename(frame: StackFrame): string | undefined {
  const path = frame.filename ?? frame.absPath;
  if (!path) return undefined;
  const clean = path.split(/[?#]/, 1)[0] ?? path;
  return clean.split(/[\\/]/).pop() || undefined;
}
