import { optimize, type PluginConfig } from 'svgo';
import { sanitizer } from './sanitize-svg.ts';

export const OPTIMIZE_PRESETS = ['default', 'safe', 'none'] as const;
export type OptimizePreset = (typeof OPTIMIZE_PRESETS)[number];

export const DEFAULT_MULTIPASS_ITERATIONS = 10;
export const MAX_MULTIPASS_ITERATIONS = 100;

/** `safe`: only what cannot change rendering; no path, number or structure rewriting. */
const SAFE_PLUGINS: PluginConfig[] = [
  'removeComments',
  'removeMetadata',
  'removeEditorsNSData',
  'removeXMLProcInst',
  'removeEmptyContainers',
  'cleanupAttrs',
];

const PLUGINS: Record<Exclude<OptimizePreset, 'none'>, PluginConfig[]> = {
  default: ['preset-default'],
  safe: SAFE_PLUGINS,
};

export interface OptimizeSettings {
  preset: OptimizePreset;
  multipass: boolean;
  /** Most passes when multipass is on; passes stop earlier once the output stops shrinking. */
  iterations: number;
}

/** An input error worded and classified as svgo's own parser errors are (see errors.ts). */
function parserError(message: string): Error {
  const err = new Error(message);
  err.name = 'SvgoParserError';
  return err;
}

/** An optimised SVG and how many unsafe pieces (external references, script) were taken out of it. */
export interface OptimizedSvg {
  svg: string;
  removed: number;
}

/**
 * Runs svgo with the preset, after removing every external reference and script (whatever the
 * preset, `none` included: the service never hands such a document back). Throws an
 * SvgoParserError for input that is not well-formed XML or that ends before its root element does
 * (svgo's parser answers such a document with nothing).
 */
export function optimizeSvg(svg: string, settings: OptimizeSettings): OptimizedSvg {
  // The first parse, whatever the preset, both refuses malformed input alike and sanitises.
  const { plugin, removed } = sanitizer();
  const safe = optimize(svg, { plugins: [plugin] }).data;
  if (safe.trim() === '') throw parserError('<input>: the document ends before its root element is complete');
  // `none` hands the upload back byte for byte unless something had to go.
  if (settings.preset === 'none') return { svg: removed() > 0 ? safe : svg, removed: removed() };
  const plugins = PLUGINS[settings.preset];
  const passes = settings.multipass ? Math.max(1, settings.iterations) : 1;
  let current = safe;
  for (let pass = 0; pass < passes; pass++) {
    const next = optimize(current, { plugins }).data;
    const shrank = next.length < current.length;
    if (next.length <= current.length) current = next;
    if (!shrank) break;
  }
  return { svg: current, removed: removed() };
}
