import { describe, expect, it } from 'vitest';
import { AreaQueue } from '../src/area-queue.ts';
import { type Clustering, clusterPixels } from '../src/clusters.ts';
import { buildHierarchy, type HierarchySettings } from '../src/hierarchy.ts';
import { makeImage, type Rgba, seeded } from './helpers.ts';

/**
 * The hierarchy as its definition reads, slowly: every visit scans all pixels for the cluster's
 * neighbours, shared edges and perimeter. Clusters come from a queue by area, the last queued first
 * among equals, all of them queued in id order at the start. Ties in colour distance go to the
 * larger neighbour, then the lower id. The engine (pixel-grid phase for small clusters, adjacency
 * lists for the rest) must give exactly this.
 */
function referenceHierarchy(clustering: Clustering, settings: HierarchySettings) {
  const { width: w, height: h, labels: original, count } = clustering;
  const owner = Int32Array.from(original);
  const area = Array.from(clustering.area);
  const colorArea = Array.from(clustering.area);
  const sums = Array.from(clustering.sums);
  const mean = (c: number, k: number): number => sums[4 * c + k]! * (1 / colorArea[c]!);
  const mergedInto = new Int32Array(count).fill(-1);
  const color = new Float64Array(4 * count);
  const layers: number[] = [];
  const queue = new AreaQueue(count);
  for (let c = 0; c < count; c++) queue.push(area[c]!, c);
  const dead = new Uint8Array(count);
  while (queue.size > 0) {
    queue.pop();
    const id = queue.id;
    if (dead[id] || queue.area !== area[id]) continue;
    let perimeter = 0;
    const shared = new Map<number, number>();
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        if (owner[y * w + x] !== id) continue;
        for (const [nx, ny] of [
          [x, y - 1],
          [x - 1, y],
          [x + 1, y],
          [x, y + 1],
        ] as const) {
          if (nx < 0 || ny < 0 || nx >= w || ny >= h) continue;
          const other = owner[ny * w + nx]!;
          if (other === id) continue;
          perimeter++;
          if (other >= 0) shared.set(other, (shared.get(other) ?? 0) + 1);
        }
      }
    }
    for (let k = 0; k < 4; k++) color[4 * id + k] = mean(id, k);
    let best = -1;
    let bestDistance = Number.POSITIVE_INFINITY;
    for (const other of shared.keys()) {
      let distance = 0;
      for (let k = 0; k < 4; k++) distance += Math.abs(mean(other, k) - mean(id, k));
      const better =
        distance < bestDistance ||
        (distance === bestDistance && (area[other]! > area[best]! || (area[other] === area[best] && other < best)));
      if (better) {
        bestDistance = distance;
        best = other;
      }
    }
    if (best < 0) {
      layers.push(id);
      continue;
    }
    const threadLike = perimeter >= area[id]! * 1.5;
    const isLayer = area[id]! > settings.speckleArea && !threadLike && bestDistance > settings.layerDifference;
    if (isLayer) layers.push(id);
    else {
      for (let k = 0; k < 4; k++) sums[4 * best + k]! += sums[4 * id + k]!;
      colorArea[best]! += colorArea[id]!;
    }
    area[best]! += area[id]!;
    mergedInto[id] = best;
    dead[id] = 1;
    for (let p = 0; p < owner.length; p++) if (owner[p] === id) owner[p] = best;
    queue.push(area[best]!, best);
  }
  return { mergedInto, layers, color };
}

/** Blobs of a few colours with noise on top: clusters of every size, from specks to regions. */
function blobImage(width: number, height: number, seed: number, transparent: boolean) {
  const random = seeded(seed);
  const centres = Array.from({ length: 6 }, () => [random() * width, random() * height, 3 + random() * 12] as const);
  const palette: Rgba[] = [
    [200, 40, 40, 255],
    [40, 160, 60, 255],
    [30, 60, 200, 255],
    [230, 210, 60, 255],
  ];
  return makeImage(width, height, (x, y) => {
    let colour: Rgba = [240, 240, 240, 255];
    centres.forEach(([cx, cy, r], k) => {
      if ((x - cx) ** 2 + (y - cy) ** 2 < r * r) colour = palette[k % palette.length]!;
    });
    if (transparent && x < 3) return [0, 0, 0, 0];
    const noise = random() < 0.3 ? Math.floor((random() - 0.5) * 60) : 0;
    return [colour[0] + noise, colour[1] - noise, colour[2] + noise, colour[3]].map((v) =>
      Math.max(0, Math.min(255, v)),
    ) as unknown as Rgba;
  });
}

/**
 * Bands of a stepped gradient, thin lines (thread-like or not, depending on their width), small
 * rectangles and noisy patches: regions of 17 to a few hundred pixels that the adjacency-list
 * phase decides, with perimeters near the thread-like limit.
 */
function bandImage(width: number, height: number, seed: number, noiseEverywhere = false) {
  const random = seeded(seed);
  const lines = Array.from({ length: 8 }, () => ({
    horizontal: random() < 0.5,
    at: Math.floor(random() * Math.min(width, height)),
    from: Math.floor(random() * width * 0.5),
    length: 12 + Math.floor(random() * 30),
    thickness: 1 + Math.floor(random() * 3),
    colour: [Math.floor(random() * 256), Math.floor(random() * 256), Math.floor(random() * 256), 255] as Rgba,
  }));
  return makeImage(width, height, (x, y) => {
    const band = Math.floor(x / 5);
    let colour: Rgba = [60 + band * 9, 200 - band * 6, 90 + ((band * 37) % 60), 255];
    for (const line of lines) {
      const along = line.horizontal ? x : y;
      const across = line.horizontal ? y : x;
      if (
        along >= line.from &&
        along < line.from + line.length &&
        across >= line.at &&
        across < line.at + line.thickness
      )
        colour = line.colour;
    }
    if ((noiseEverywhere || (x > width * 0.6 && y > height * 0.5)) && random() < 0.4)
      colour = [colour[0] ^ 24, colour[1] ^ 40, colour[2] ^ 8, 255] as unknown as Rgba;
    return colour;
  });
}

describe('colour hierarchy', () => {
  const cases: [string, ReturnType<typeof blobImage>, number, HierarchySettings][] = [
    ['blobs and noise, defaults', blobImage(48, 40, 1, false), 6, { speckleArea: 16, layerDifference: 16 }],
    ['blobs and noise, photo preset', blobImage(48, 40, 2, false), 8, { speckleArea: 100, layerDifference: 48 }],
    ['keyed-out border, no speckle filter', blobImage(40, 36, 3, true), 6, { speckleArea: 0, layerDifference: 16 }],
    ['coarse colours, small speckles', blobImage(56, 30, 4, false), 3, { speckleArea: 4, layerDifference: 0 }],
    ['bands and lines, defaults', bandImage(64, 48, 5), 6, { speckleArea: 16, layerDifference: 16 }],
    ['bands and lines, small speckles', bandImage(64, 48, 6), 7, { speckleArea: 4, layerDifference: 8 }],
    ['bands and lines, coarse', bandImage(64, 48, 7), 4, { speckleArea: 9, layerDifference: 24 }],
    [
      'noisy bands and lines, every cluster may be a layer',
      bandImage(64, 48, 8, true),
      5,
      { speckleArea: 0, layerDifference: 0 },
    ],
    ['noisy bands and lines', bandImage(72, 56, 9, true), 6, { speckleArea: 16, layerDifference: 8 }],
  ];
  for (const [name, image, precision, settings] of cases) {
    it(`matches the definition: ${name}`, () => {
      const clustering = clusterPixels(image, precision);
      const expected = referenceHierarchy(clustering, settings);
      // The engine reuses buffers: its result arrays are copied before the next trace.
      const actual = buildHierarchy(clustering, settings);
      expect(clustering.count).toBeGreaterThan(50);
      expect(Array.from(actual.mergedInto)).toEqual(Array.from(expected.mergedInto));
      expect(actual.layers).toEqual(expected.layers);
      expect(Array.from(actual.color)).toEqual(Array.from(expected.color));
    });
  }
});
