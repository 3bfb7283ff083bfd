/** The benchmark's three settings and their translation to vtracer's configuration. */
import { ColorMode, type Config, Hierarchical, PathSimplifyMode } from '@neplex/vectorizer';
import type { TraceParameters } from '../src/index.ts';
import { DEFAULT_PARAMETERS, PRESET_PARAMETERS } from '../src/options.ts';

export const SETTINGS: Record<string, TraceParameters> = {
  default: { ...DEFAULT_PARAMETERS },
  poster: { ...DEFAULT_PARAMETERS, ...PRESET_PARAMETERS.poster },
  photo: { ...DEFAULT_PARAMETERS, ...PRESET_PARAMETERS.photo },
};

export function vtracerConfig(p: TraceParameters): Config {
  return {
    colorMode: p.color_mode === 'binary' ? ColorMode.Binary : ColorMode.Color,
    hierarchical: p.hierarchical === 'cutout' ? Hierarchical.Cutout : Hierarchical.Stacked,
    mode:
      p.path_simplify === 'none'
        ? PathSimplifyMode.None
        : p.path_simplify === 'polygon'
          ? PathSimplifyMode.Polygon
          : PathSimplifyMode.Spline,
    filterSpeckle: p.filter_speckle,
    colorPrecision: Math.min(8, p.color_precision),
    layerDifference: p.layer_difference,
    cornerThreshold: p.corner_threshold,
    lengthThreshold: p.length_threshold,
    maxIterations: p.max_iterations,
    spliceThreshold: p.splice_threshold,
    pathPrecision: p.path_precision,
  };
}
