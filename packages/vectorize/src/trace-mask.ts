import type { TraceParameters } from './options.ts';
import { type LoopSink, type Mask, traceLoops } from './outline.ts';
import { PathBuilder } from './path-builder.ts';
import { chordPoints, removeStairSteps, simplifyChords, stairFreePoints } from './polygon.ts';
import { appendSpline, type SplineSettings } from './spline.ts';
import type { PathCommand } from './types.ts';

// Greedy chords may skip points up to this far (px) from the chord. Measured on the benchmark set
// (median PSNR against bytes): for polygon output 0.5 gains 2 dB over 0.75 at the same size; before
// spline fitting a tighter 0.35 keeps small round shapes round and beats 0.75, 0.5, 0.25 and 0.1.
const POLYGON_TOLERANCE = 0.5;
const SPLINE_TOLERANCE = 0.35;

/**
 * Turns pixel-corner loops into one path's commands as `path_simplify` asks, each loop as soon as
 * it is walked (the walkers reuse one corner buffer).
 */
export class OutlineWriter implements LoopSink {
  builder: PathBuilder;
  private readonly splineSettings: SplineSettings;

  constructor(
    private readonly params: TraceParameters,
    frameWidth: number,
    frameHeight: number,
  ) {
    this.builder = new PathBuilder(params.path_precision);
    this.splineSettings = {
      cornerThreshold: params.corner_threshold,
      lengthThreshold: params.length_threshold,
      maxIterations: params.max_iterations,
      spliceThreshold: params.splice_threshold,
      frameWidth,
      frameHeight,
    };
  }

  /** The commands written so far; the next loops go to a new path. */
  take(): PathCommand[] {
    const { commands } = this.builder;
    this.builder = new PathBuilder(this.params.path_precision);
    return commands;
  }

  addLoop(corners: Int32Array, length: number): void {
    const simplify = this.params.path_simplify;
    if (simplify === 'none') {
      this.builder.polygon(corners, length);
      return;
    }
    const steps = removeStairSteps(corners, length);
    const tolerance = simplify === 'polygon' ? POLYGON_TOLERANCE : SPLINE_TOLERANCE;
    const count = simplifyChords(stairFreePoints(), steps, tolerance);
    if (simplify === 'polygon') this.builder.polygon(chordPoints(), count);
    else appendSpline(chordPoints(), count, this.splineSettings, this.builder);
  }
}

/** Outlines every piece of the mask (outer loops and holes) as one path's commands. */
export function traceMask(mask: Mask, params: TraceParameters, frameWidth: number, frameHeight: number): PathCommand[] {
  const writer = new OutlineWriter(params, frameWidth, frameHeight);
  traceLoops(mask, writer);
  return writer.take();
}
