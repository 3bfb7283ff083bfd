import { badRequest } from '@trove/service-kit';

/**
 * Refuses SVG that is unsafe to parse: any DOCTYPE (the only way to declare entities, so no
 * external entities and no billion-laughs expansion). Checked on the raw text before the XML
 * parser sees it, so refusal is immediate. Scripts, event handlers and external references are
 * not refused but removed (and counted) by the optimiser, whatever the preset.
 */
export function checkSvgText(text: string): void {
  if (/<!DOCTYPE/i.test(text) || /<!ENTITY/i.test(text)) {
    throw badRequest(
      'SVG with a DOCTYPE or entity declarations is not accepted (external entities and entity expansion are refused)',
    );
  }
  if (!/<(?:[\w-]+:)?svg[\s>/]/.test(text)) throw badRequest('the file is not an SVG document: no <svg> element');
}

/** Upload bytes → text; an SVG must be UTF-8. */
export function svgText(bytes: Buffer): string {
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  if (text.includes('\u0000')) throw badRequest('the file is not an SVG document: it contains binary data');
  return text;
}
