import { originalPositionFor, sourceContentFor, type TraceMap } from '@jridgewell/trace-mapping';

const CONTEXT_LINES = 5;

/** `webpack://app/./src/a.ts`, `../src/a.ts` → `src/a.ts`: the path a developer knows the file by. */
export function cleanSource(source: string): string {
  return source
    .replace(/^[a-z]+:\/\/[^/]*\//i, '')
    .replace(/^(\.\.?\/)+/, '')
    .replace(/^\/+/, '');
}

const IDENT = '[A-Za-z_$][\\w$]*';
const FUNCTION_PATTERNS = [
  new RegExp(`\\bfunction\\s*\\*?\\s*(${IDENT})\\s*[<(]`),
  new RegExp(`\\b(?:const|let|var)\\s+(${IDENT})\\s*(?::[^=]+)?=\\s*(?:async\\s+)?(?:function\\b|\\(|${IDENT}\\s*=>)`),
  new RegExp(
    `^\\s*(?:(?:public|private|protected|static|async|override|readonly)\\s+)*\\*?(${IDENT})\\s*(?:<[^>]*>)?\\([^)]*\\)\\s*(?::\\s*[^{]+)?\\{`,
  ),
];
const NOT_FUNCTIONS = new Set(['if', 'for', 'while', 'switch', 'catch', 'return', 'function', 'with']);
const indentOf = (line: string) => /^\s*/.exec(line)?.[0].length ?? 0;

/**
 * The name of the function around an original line, read from the source: a minified stack names
 * `a` or `r`, and a map names the token at a position, not the function it is in. Walks up from the
 * line to the nearest less indented line that declares a function, method or arrow function.
 * Null for a statement at the top of the module (not indented, declaring nothing): it runs in no
 * function, and the map's name there is the function it calls, not the frame's.
 */
export function enclosingFunction(lines: string[], line: number): string | null | undefined {
  let indent = indentOf(lines[line - 1] ?? '');
  const topLevel = indent === 0;
  for (let i = line - 1; i >= 0; i--) {
    const text = lines[i] ?? '';
    if (text.trim() === '') continue;
    const own = indentOf(text);
    if (i < line - 1 && own >= indent) continue;
    for (const pattern of FUNCTION_PATTERNS) {
      const name = pattern.exec(text)?.[1];
      if (name && !NOT_FUNCTIONS.has(name)) return name;
    }
    if (topLevel) return null;
    indent = Math.min(indent, own);
    if (own === 0 && i < line - 1) break;
  }
  return topLevel ? null : undefined;
}

// Splitting a source into lines costs more than the lookup itself: once per map and source.
const linesCache = new WeakMap<TraceMap, Map<string, string[] | undefined>>();
function sourceLines(map: TraceMap, source: string): string[] | undefined {
  let sources = linesCache.get(map);
  if (!sources) {
    sources = new Map();
    linesCache.set(map, sources);
  }
  if (!sources.has(source)) sources.set(source, sourceContentFor(map, source)?.split(/\r?\n/));
  return sources.get(source);
}

export interface OriginalFrame {
  filename: string;
  abs_path: string;
  function?: string;
  lineno: number;
  colno: number;
  in_app: boolean;
  pre_context?: string[];
  context_line?: string;
  post_context?: string[];
}

/** The original file, line, column and function of a minified position (1-based line and column). */
export function originalFrame(
  map: TraceMap,
  line: number,
  column: number,
  minifiedName?: string,
): OriginalFrame | undefined {
  const pos = originalPositionFor(map, { line, column: Math.max(0, column - 1) });
  if (pos.source === null || pos.line === null) return undefined;
  const lines = sourceLines(map, pos.source);
  const enclosing = lines && enclosingFunction(lines, pos.line);
  const frame: OriginalFrame = {
    filename: cleanSource(pos.source),
    abs_path: pos.source,
    function: enclosing === null ? minifiedName : (enclosing ?? pos.name ?? minifiedName),
    lineno: pos.line,
    colno: pos.column + 1,
    // What a library ships is not the app's code, even once it is resolved.
    in_app: !/(^|\/)node_modules\//.test(pos.source),
  };
  if (lines) {
    frame.pre_context = lines.slice(Math.max(0, pos.line - 1 - CONTEXT_LINES), pos.line - 1);
    frame.context_line = lines[pos.line - 1] ?? '';
    frame.post_context = lines.slice(pos.line, pos.line + CONTEXT_LINES);
  }
  return frame;
}
