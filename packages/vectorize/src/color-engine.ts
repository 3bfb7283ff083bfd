import { clusterPixels } from './clusters.ts';
import { buildHierarchy } from './hierarchy.ts';
import { cutoutLayers, stackedLayers } from './layers.ts';
import type { TraceParameters } from './options.ts';
import { traceRegionLoops } from './outline.ts';
import { OutlineWriter } from './trace-mask.ts';
import type { RgbaImage, VectorPath } from './types.ts';

/** Colour tracing: clusters, hierarchy, then one path per layer in paint order. */
export function traceColor(image: RgbaImage, params: TraceParameters): VectorPath[] {
  const clustering = clusterPixels(image, params.color_precision);
  const hierarchy = buildHierarchy(clustering, {
    speckleArea: params.filter_speckle * params.filter_speckle,
    layerDifference: params.layer_difference,
  });
  const { index, layers } =
    params.hierarchical === 'cutout' ? cutoutLayers(clustering, hierarchy) : stackedLayers(clustering, hierarchy);
  const paths: VectorPath[] = [];
  const writer = new OutlineWriter(params, image.width, image.height);
  for (let k = 0; k < layers.length; k++) {
    const layer = layers[k]!;
    traceRegionLoops(index, layer.lo, layer.hi, k, writer);
    const commands = writer.take();
    if (commands.length === 0) continue;
    const c = hierarchy.color;
    const base = 4 * layer.cluster;
    const alpha = Math.round(c[base + 3]!);
    paths.push({
      color: {
        r: Math.round(c[base]!),
        g: Math.round(c[base + 1]!),
        b: Math.round(c[base + 2]!),
        // Keyed pixels are gone already; nearly opaque layers are written opaque (no fill-opacity).
        a: alpha >= 250 ? 255 : alpha,
      },
      commands,
    });
  }
  return paths;
}
