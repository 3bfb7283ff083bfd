import { optimize, type PluginConfig } from 'svgo';

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

/** Runs svgo with the preset; throws svgo's SvgoParserError for input that is not well-formed XML. */
export function optimizeSvg(svg: string, settings: OptimizeSettings): string {
  if (settings.preset === 'none') {
    // Still parsed, so malformed input is refused the same way whatever the preset; returned as sent.
    optimize(svg, { plugins: [] });
    return svg;
  }
  const plugins = PLUGINS[settings.preset];
  const passes = settings.multipass ? Math.max(1, settings.iterations) : 1;
  let current = svg;
  for (let pass = 0; pass < passes; pass++) {
    const next = optimize(current, { plugins }).data;
    const shrank = next.length < current.length;
    if (next.length <= current.length) current = next;
    if (!shrank) break;
  }
  return current;
}
