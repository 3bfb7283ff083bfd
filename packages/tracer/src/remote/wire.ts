/**
 * Conversions between the tracer's values and trove.vectorize.v1 messages, shared by the client
 * (vectorize-api) and the server (vectorizer-worker) so both read the contract the same way.
 */
import type { MessageInitShape } from '@bufbuild/protobuf';
import {
  type TraceOptions,
  type TraceOptionsSchema,
  type TraceResponse,
  type TraceResponseSchema,
  DocumentFormat as WireDocument,
} from '@trove/proto/vectorize/v1';
import type { ResolvedEngine, VectorizeOptions } from '@trove/vectorize';
import {
  MAX_MULTIPASS_ITERATIONS,
  OPTIMIZE_PRESETS,
  type OptimizedSvg,
  type OptimizeSettings,
} from '../output/optimize-svg.ts';
import type { PackedPaths } from '../packed-paths.ts';
import type { DocumentFormat, TraceOutput } from '../tracer.ts';

/** Option names as the spec writes them, and as protobuf-es names the fields. */
const OPTION_FIELDS = [
  ['engine', 'engine'],
  ['preset', 'preset'],
  ['profile', 'profile'],
  ['color_mode', 'colorMode'],
  ['hierarchical', 'hierarchical'],
  ['path_simplify', 'pathSimplify'],
  ['color_precision', 'colorPrecision'],
  ['filter_speckle', 'filterSpeckle'],
  ['layer_difference', 'layerDifference'],
  ['corner_threshold', 'cornerThreshold'],
  ['length_threshold', 'lengthThreshold'],
  ['max_iterations', 'maxIterations'],
  ['splice_threshold', 'spliceThreshold'],
  ['path_precision', 'pathPrecision'],
] as const satisfies readonly (readonly [keyof VectorizeOptions, keyof Omit<TraceOptions, '$typeName' | '$unknown'>])[];

export function optionsToWire(options: VectorizeOptions): MessageInitShape<typeof TraceOptionsSchema> {
  const wire: Record<string, unknown> = {};
  for (const [name, field] of OPTION_FIELDS) if (options[name] !== undefined) wire[field] = options[name];
  return wire;
}

/** The options a request carried, by spec name, unchecked: pass them to validateOptions. */
export function optionsFromWire(wire: TraceOptions | undefined): Record<string, unknown> {
  const options: Record<string, unknown> = {};
  if (!wire) return options;
  for (const [name, field] of OPTION_FIELDS) if (wire[field] !== undefined) options[name] = wire[field];
  return options;
}

export function documentToWire(document: DocumentFormat | undefined): WireDocument {
  if (document === 'pdf') return WireDocument.PDF;
  if (document === 'eps') return WireDocument.EPS;
  return WireDocument.UNSPECIFIED;
}

export function documentFromWire(document: WireDocument): DocumentFormat | undefined {
  if (document === WireDocument.PDF) return 'pdf';
  if (document === WireDocument.EPS) return 'eps';
  return undefined;
}

export function settingsToWire(settings: OptimizeSettings): { preset: string; multipass: boolean; iterations: number } {
  return { preset: settings.preset, multipass: settings.multipass, iterations: settings.iterations };
}

/** Checks optimiser settings from the wire; throws with a message for the caller. */
export function settingsFromWire(wire: { preset: string; multipass: boolean; iterations: number }): OptimizeSettings {
  const preset = OPTIMIZE_PRESETS.find((name) => name === wire.preset);
  if (!preset)
    throw new Error(`preset must be one of ${OPTIMIZE_PRESETS.join(', ')} (got ${JSON.stringify(wire.preset)})`);
  if (wire.multipass && (wire.iterations < 1 || wire.iterations > MAX_MULTIPASS_ITERATIONS)) {
    throw new Error(`iterations must be from 1 to ${MAX_MULTIPASS_ITERATIONS} with multipass (got ${wire.iterations})`);
  }
  return { preset, multipass: wire.multipass, iterations: Math.max(1, wire.iterations) };
}

export function outputToWire(output: TraceOutput): MessageInitShape<typeof TraceResponseSchema> {
  const { svg, width, height, engineUsed, pathCount, paths, document } = output;
  return {
    svg,
    width,
    height,
    engineUsed,
    pathCount,
    document: document ?? new Uint8Array(0),
    paths: paths && {
      colors: paths.colors,
      commandCounts: Array.from(paths.commandCounts),
      ops: paths.ops,
      coords: Array.from(paths.coords),
    },
  };
}

const ENGINES: readonly ResolvedEngine[] = ['spline', 'pixel-exact'];

export function outputFromWire(wire: TraceResponse): TraceOutput {
  const engineUsed = ENGINES.find((engine) => engine === wire.engineUsed);
  if (!engineUsed) throw new Error(`the worker answered an unknown engine ${JSON.stringify(wire.engineUsed)}`);
  const output: TraceOutput = {
    svg: wire.svg,
    width: wire.width,
    height: wire.height,
    engineUsed,
    pathCount: wire.pathCount,
  };
  if (wire.document.length > 0) output.document = wire.document;
  if (wire.paths) {
    const paths: PackedPaths = {
      colors: wire.paths.colors,
      commandCounts: Uint32Array.from(wire.paths.commandCounts),
      ops: wire.paths.ops,
      coords: Float64Array.from(wire.paths.coords),
    };
    output.paths = paths;
  }
  return output;
}

/**
 * The count of removed unsafe pieces travels in OptimizeResponse.unsafe_removed. Workers from
 * before that field put it in a comment leading the SVG instead; while the field is unset (such a
 * worker during a rolling deploy), the client still takes the count from that comment.
 */
const LEGACY_REMOVED_MARK = /^<!--trove-removed:(\d+)-->/;

export function optimizedToWire(output: OptimizedSvg): { svg: string; unsafeRemoved: number } {
  return { svg: output.svg, unsafeRemoved: output.removed };
}

export function optimizedFromWire(wire: { svg: string; unsafeRemoved?: number }): OptimizedSvg {
  if (wire.unsafeRemoved !== undefined) return { svg: wire.svg, removed: wire.unsafeRemoved };
  const mark = LEGACY_REMOVED_MARK.exec(wire.svg);
  if (!mark) throw new Error('the worker answered an optimised SVG without its count of removed pieces');
  return { svg: wire.svg.slice(mark[0].length), removed: Number(mark[1]) };
}
