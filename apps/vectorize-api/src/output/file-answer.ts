/**
 * How a vectorize answer is delivered: the spec's JSON (the default for SVG) or the file itself,
 * chosen by the `format` field, the `format` and `download` query parameters and the Accept header.
 */
import { badRequest } from '@trove/service-kit';
import { booleanField, enumField } from '../input/form.ts';
import { OUTPUT_FORMATS, type OutputFormat } from '../schemas/vectorize.ts';

export const FILE_TYPES: Record<OutputFormat, string> = {
  svg: 'image/svg+xml',
  pdf: 'application/pdf',
  eps: 'application/postscript',
};

export interface AnswerChoice {
  format: OutputFormat;
  /** The bytes themselves with Content-Disposition (always for PDF and EPS); else the JSON body. */
  file: boolean;
}

interface Ranged {
  type: string;
  q: number;
  /** 2 for a full type, 1 for `image/*`, 0 for `*\/*`: a more specific range decides. */
  specificity: number;
}

function parseAccept(header: string): Ranged[] {
  const ranges: Ranged[] = [];
  for (const item of header.split(',')) {
    const [type = '', ...params] = item.split(';').map((piece) => piece.trim().toLowerCase());
    if (!type.includes('/')) continue;
    const qParam = params.find((param) => param.startsWith('q='));
    const q = qParam ? Number(qParam.slice(2)) : 1;
    const specificity = type === '*/*' ? 0 : type.endsWith('/*') ? 1 : 2;
    ranges.push({ type, q: Number.isFinite(q) ? q : 0, specificity });
  }
  return ranges;
}

/** The q an Accept header gives a media type: that of the most specific range matching it. */
function quality(ranges: Ranged[], type: string): number {
  let best: Ranged | undefined;
  for (const range of ranges) {
    const matches = range.type === type || range.type === '*/*' || range.type === `${type.split('/')[0]}/*`;
    if (matches && (!best || range.specificity > best.specificity)) best = range;
  }
  return best?.q ?? 0;
}

/**
 * The format a client's Accept header prefers, when it names one of ours explicitly above JSON;
 * undefined otherwise (no header, `*\/*`, a browser's usual list): the JSON default stays.
 */
export function formatFromAccept(header: string | undefined): OutputFormat | undefined {
  if (!header) return undefined;
  const ranges = parseAccept(header);
  const json = quality(ranges, 'application/json');
  let chosen: OutputFormat | undefined;
  let chosenQ = json;
  for (const format of OUTPUT_FORMATS) {
    const type = FILE_TYPES[format];
    // Only a range that names the type itself counts: `*/*` or `image/*` alone keep JSON.
    if (!ranges.some((range) => range.type === type && range.q > 0)) continue;
    const q = quality(ranges, type);
    if (q > chosenQ) {
      chosen = format;
      chosenQ = q;
    }
  }
  return chosen;
}

/**
 * The form's `format` field wins, then the query's `format`, then the Accept header; SVG comes as a
 * file when the Accept header asked for image/svg+xml or `download` is on.
 */
export function chooseAnswer(
  fields: Record<string, string>,
  params: Record<string, string>,
  accept: string | undefined,
): AnswerChoice {
  if (fields.format && params.format && fields.format !== params.format) {
    throw badRequest(`format is "${fields.format}" in the form but "${params.format}" in the query; send one`);
  }
  const named = fields.format ? fields : params;
  const explicit = named.format ? enumField(named, 'format', OUTPUT_FORMATS, 'svg') : undefined;
  const download = downloadAsked(fields, params);
  const fromAccept = formatFromAccept(accept);
  const format = explicit ?? fromAccept ?? 'svg';
  return { format, file: format !== 'svg' || download || fromAccept === 'svg' };
}

/**
 * For answers that are always SVG (`/v1/optimize`): whether the file itself was asked for, by the
 * Accept header or `download` (query or form); else JSON.
 */
export function svgFileAsked(
  fields: Record<string, string>,
  params: Record<string, string>,
  accept: string | undefined,
): boolean {
  return downloadAsked(fields, params) || formatFromAccept(accept) === 'svg';
}

function downloadAsked(fields: Record<string, string>, query: Record<string, string>): boolean {
  return booleanField(query, 'download', false) || booleanField(fields, 'download', false);
}

/**
 * Content-Disposition for the file: the upload's name without its extension (and without any
 * folder a client sent), plus `extension` (the format's, or `min.svg` for an optimised SVG, so
 * that saving it beside the original neither overwrites it nor, with `curl -OJ`, fails); ASCII in
 * `filename`, the exact name in `filename*`.
 */
export function contentDisposition(uploadName: string | undefined, extension: OutputFormat | 'min.svg'): string {
  const base = (uploadName ?? '')
    .split(/[/\\]/)
    .pop()
    ?.replace(/\.[^.]*$/, '')
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what must go
    .replace(/[\u0000-\u001f\u007f"]/g, '')
    .trim();
  const name = `${base || (extension === 'min.svg' ? 'optimized' : 'vectorized')}.${extension}`;
  const ascii = name.replace(/[^\x20-\x7e]/g, '_');
  const header = `attachment; filename="${ascii}"`;
  return ascii === name ? header : `${header}; filename*=UTF-8''${encodeURIComponent(name)}`;
}
