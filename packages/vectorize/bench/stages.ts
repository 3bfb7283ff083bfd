/** Steady-state time per stage of the colour engine, for tuning. Run: npx tsx bench/stages.ts <fixture.png> */
import { join } from 'node:path';
import { clusterPixels } from '../src/clusters.ts';
import { buildHierarchy } from '../src/hierarchy.ts';
import { stackedLayers } from '../src/layers.ts';
import { resolveOptions } from '../src/options.ts';
import { traceRegionLoops } from '../src/outline.ts';
import { svgDocument } from '../src/svg.ts';
import { outlineCommands } from '../src/trace-mask.ts';
import type { VectorPath } from '../src/types.ts';
import { loadPng } from './quality.ts';

const image = await loadPng(
  join(import.meta.dirname, '..', 'fixtures', process.argv[2] ?? 'illustration-gradients-600x400.png'),
);
const params = resolveOptions({ engine: 'spline' });
const totals = { cluster: 0, hierarchy: 0, layers: 0, trace: 0, svg: 0 };
for (let round = 0; round < 12; round++) {
  let t = performance.now();
  const clustering = clusterPixels(image, params.color_precision);
  const t1 = performance.now();
  const hierarchy = buildHierarchy(clustering, { speckleArea: 16, layerDifference: 16 });
  const t2 = performance.now();
  const { index, layers } = stackedLayers(clustering, hierarchy);
  const t3 = performance.now();
  const paths: VectorPath[] = layers.map((l, k) => ({
    color: { r: 0, g: 0, b: 0, a: 255 },
    commands: outlineCommands(traceRegionLoops(index, l.lo, l.hi, k), params, image.width, image.height),
  }));
  const t4 = performance.now();
  svgDocument(image.width, image.height, paths, { precision: 2 });
  const t5 = performance.now();
  if (round >= 4) {
    totals.cluster += t1 - t;
    totals.hierarchy += t2 - t1;
    totals.layers += t3 - t2;
    totals.trace += t4 - t3;
    totals.svg += t5 - t4;
  }
  t = t5;
}
console.log(Object.fromEntries(Object.entries(totals).map(([k, v]) => [k, (v / 8).toFixed(1)])));
