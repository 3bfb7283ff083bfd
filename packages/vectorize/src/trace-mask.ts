import type { TraceParameters } from './options.ts';
import { type Mask, traceLoops } from './outline.ts';
import { PathBuilder } from './path-builder.ts';
import { removeStairSteps, simplifyChords } from './polygon.ts';
import { appendSpline } from './spline.ts';
import type { PathCommand } from './types.ts';

// Greedy chords may skip points up to this far (px) from the chord. Measured on the benchmark set
// (median PSNR against bytes): for polygon output 0.5 gains 2 dB over 0.75 at the same size; before
// spline fitting a tighter 0.35 keeps small round shapes round and beats 0.75, 0.5, 0.25 and 0.1.
const POLYGON_TOLERANCE = 0.5;
const SPLINE_TOLERANCE = 0.35;

/** Outlines every piece of the mask (outer loops and holes) as one path's commands. */
export function traceMask(mask: Mask, params: TraceParameters, frameWidth: number, frameHeight: number): PathCommand[] {
  return outlineCommands(traceLoops(mask), params, frameWidth, frameHeight);
}

/** Simplifies pixel-corner loops as `path_simplify` asks, into one path's commands. */
export function outlineCommands(
  loops: Int32Array[],
  params: TraceParameters,
  frameWidth: number,
  frameHeight: number,
): PathCommand[] {
  const builder = new PathBuilder(params.path_precision);
  const splineSettings = {
    cornerThreshold: params.corner_threshold,
    lengthThreshold: params.length_threshold,
    maxIterations: params.max_iterations,
    spliceThreshold: params.splice_threshold,
    frameWidth,
    frameHeight,
  };
  for (const loop of loops) {
    if (params.path_simplify === 'none') {
      builder.polygon(loop);
      continue;
    }
    const steps = removeStairSteps(loop);
    if (params.path_simplify === 'polygon') builder.polygon(simplifyChords(steps, POLYGON_TOLERANCE));
    else appendSpline(simplifyChords(steps, SPLINE_TOLERANCE), splineSettings, builder);
  }
  return builder.commands;
}
