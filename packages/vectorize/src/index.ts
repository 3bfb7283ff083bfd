import { traceBinary } from './binary-engine.ts';
import { traceColor } from './color-engine.ts';
import { snapFineDetail } from './fine-detail.ts';
import { type ResolvedOptions, resolveOptions, type VectorizeOptions } from './options.ts';
import { countColors, tracePixelExact } from './pixel-exact.ts';
import { traceStackedRuns } from './stacked-runs.ts';
import { svgDocument } from './svg.ts';
import type { ResolvedEngine, RgbaImage, VectorizeResult, VectorPath } from './types.ts';

export {
  COLOR_MODES,
  DEFAULT_PARAMETERS,
  ENGINES,
  HIERARCHICAL_MODES,
  NUMERIC_RANGES,
  PATH_SIMPLIFY_MODES,
  PRESET_PARAMETERS,
  PRESETS,
  PROFILE_PARAMETERS,
  PROFILES,
  type ResolvedOptions,
  resolveOptions,
  type TraceParameters,
  VectorizeOptionError,
  type VectorizeOptions,
  validateOptions,
} from './options.ts';
export { pathData } from './svg.ts';
export type * from './types.ts';

/**
 * `auto` picks pixel-exact when the image has at most this many distinct visible colours:
 * flat art and pixel art, where an exact copy is both smaller and better than a traced one.
 */
export const AUTO_PIXEL_EXACT_MAX_COLORS = 32;

/** Thrown when the pixels do not describe an image (size and buffer length disagree). */
export class VectorizeInputError extends Error {
  override name = 'VectorizeInputError';
}

function checkImage(image: RgbaImage): void {
  const { width, height, data } = image;
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) {
    throw new VectorizeInputError(`image width and height must be positive integers (got ${width}×${height})`);
  }
  if (!data || data.length !== width * height * 4) {
    throw new VectorizeInputError(
      `image data must hold width × height × 4 = ${width * height * 4} RGBA bytes (got ${data?.length ?? 0})`,
    );
  }
}

/** Which engine `auto` resolves to for this image and these options. */
export function chooseEngine(image: RgbaImage, options: ResolvedOptions): ResolvedEngine {
  if (options.engine !== 'auto') return options.engine;
  // Binary mode asks for a traced black-and-white result, whatever the colours.
  if (options.color_mode === 'binary') return 'spline';
  return countColors(image, AUTO_PIXEL_EXACT_MAX_COLORS) <= AUTO_PIXEL_EXACT_MAX_COLORS ? 'pixel-exact' : 'spline';
}

/**
 * Traces RGBA pixels into vector paths. Pure: no I/O. Options are validated (VectorizeOptionError
 * on a bad value) and resolved: defaults, then preset, then profile, then explicit fields.
 */
export function vectorize(image: RgbaImage, options: VectorizeOptions = {}): VectorizeResult {
  checkImage(image);
  const resolved = resolveOptions(options);
  let engineUsed = chooseEngine(image, resolved);
  // auto on a diagram or screenshot: exact runs of its dominant colours (see fine-detail.ts).
  const snapped =
    resolved.engine === 'auto' && engineUsed === 'spline' && resolved.color_mode !== 'binary'
      ? snapFineDetail(image)
      : null;
  if (snapped) engineUsed = 'pixel-exact';
  let paths: VectorPath[];
  if (snapped)
    paths = traceStackedRuns(snapped.labels, snapped.palette, image.width, image.height, resolved.path_precision);
  else if (engineUsed === 'pixel-exact') paths = tracePixelExact(image, resolved.path_precision);
  else if (resolved.color_mode === 'binary') paths = traceBinary(image, resolved);
  else paths = traceColor(image, resolved);
  const svg = svgDocument(image.width, image.height, paths, {
    precision: resolved.path_precision,
    crispEdges: engineUsed === 'pixel-exact',
  });
  return { svg, paths, width: image.width, height: image.height, engineUsed };
}
