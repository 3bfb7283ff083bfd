/**
 * Time per stage of `vectorize` with default options on the colour engine's path, beside vtracer's
 * whole run on the same image in the same loop (medians over rounds), for finding where time goes.
 * Run: npx tsx bench/stages.ts real/photo-coffee-480x320.png [more fixtures...]   (ROUNDS=n)
 */
import { join } from 'node:path';
import { vectorizeRawSync } from '@neplex/vectorizer';
import { median } from '@trove/stats';
import { clusterPixels } from '../src/clusters.ts';
import { snapFineDetail } from '../src/fine-detail.ts';
import { buildHierarchy } from '../src/hierarchy.ts';
import { chooseEngine } from '../src/index.ts';
import { stackedLayers } from '../src/layers.ts';
import { DEFAULT_PARAMETERS, resolveOptions } from '../src/options.ts';
import { traceRegionLoops } from '../src/outline.ts';
import { svgDocument } from '../src/svg.ts';
import { OutlineWriter } from '../src/trace-mask.ts';
import type { VectorPath } from '../src/types.ts';
import { loadPng } from './quality.ts';
import { vtracerConfig } from './settings.ts';

const files = process.argv.slice(2);
if (files.length === 0) files.push('real/photo-coffee-480x320.png');
const rounds = Number(process.env.ROUNDS ?? 12);
const params = resolveOptions({});
const vtConfig = vtracerConfig({ ...DEFAULT_PARAMETERS });

for (const file of files) {
  const image = await loadPng(join(import.meta.dirname, '..', 'fixtures', file));
  const raw = Buffer.from(image.data.buffer, image.data.byteOffset, image.data.length);
  const stages: Record<string, number[]> = {
    choose: [],
    cluster: [],
    hierarchy: [],
    layers: [],
    trace: [],
    svg: [],
    total: [],
    vtracer: [],
  };
  for (let round = -2; round < rounds; round++) {
    const t0 = performance.now();
    chooseEngine(image, params);
    snapFineDetail(image);
    const t1 = performance.now();
    const clustering = clusterPixels(image, params.color_precision);
    const t2 = performance.now();
    const hierarchy = buildHierarchy(clustering, {
      speckleArea: params.filter_speckle ** 2,
      layerDifference: params.layer_difference,
    });
    const t3 = performance.now();
    const { index, layers } = stackedLayers(clustering, hierarchy);
    const t4 = performance.now();
    const writer = new OutlineWriter(params, image.width, image.height);
    const paths: VectorPath[] = layers.map((l, k) => {
      traceRegionLoops(index, l.lo, l.hi, k, writer);
      return { color: { r: 0, g: 0, b: 0, a: 255 }, commands: writer.take() };
    });
    const t5 = performance.now();
    svgDocument(image.width, image.height, paths, { precision: params.path_precision });
    const t6 = performance.now();
    vectorizeRawSync(raw, { width: image.width, height: image.height }, vtConfig);
    const t7 = performance.now();
    if (round < 0) continue;
    const times = [t1 - t0, t2 - t1, t3 - t2, t4 - t3, t5 - t4, t6 - t5, t6 - t0, t7 - t6];
    Object.values(stages).forEach((list, k) => {
      list.push(times[k]!);
    });
  }
  const cells = Object.entries(stages).map(([name, list]) => `${name} ${median(list).toFixed(1)}`);
  console.log(`${file}: ${cells.join(', ')} ms; ratio ${(median(stages.total!) / median(stages.vtracer!)).toFixed(2)}`);
}
