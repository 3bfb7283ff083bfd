/**
 * Before/after sheets of the real set: for each image a crop at 2× (nearest neighbour), left to
 * right: input, before (the spline engine, what `auto` gave every non-flat image until fine-detail
 * snapping), after (`auto` now), vtracer with its defaults. Writes fixtures/real-sheets/<kind>.png.
 * Run: npx tsx bench/sheets.ts
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { vectorizeRawSync } from '@neplex/vectorizer';
import sharp, { type OverlayOptions } from 'sharp';
import { vectorize } from '../src/index.ts';
import { DEFAULT_PARAMETERS } from '../src/options.ts';
import { loadPng, type Pixels, renderSvg } from './quality.ts';
import { vtracerConfig } from './settings.ts';

const REAL = join(import.meta.dirname, '..', 'fixtures', 'real');
const OUT = join(import.meta.dirname, '..', 'fixtures', 'real-sheets');
const CROP_W = 200;
const CROP_H = 110;
const SCALE = 2;
const GAP = 6;

const manifest: { file: string; kind: string }[] = JSON.parse(readFileSync(join(REAL, 'manifest.json'), 'utf8'));
mkdirSync(OUT, { recursive: true });

async function tile(px: Pixels, left: number, top: number, w: number, h: number): Promise<Buffer> {
  return sharp(Buffer.from(px.data), { raw: { width: px.width, height: px.height, channels: 4 } })
    .extract({ left, top, width: w, height: h })
    .flatten({ background: '#ffffff' })
    .resize(w * SCALE, h * SCALE, { kernel: 'nearest' })
    .png()
    .toBuffer();
}

for (const kind of [...new Set(manifest.map((e) => e.kind))]) {
  const rows: Buffer[][] = [];
  let rowWidth = 0;
  let rowHeights: number[] = [];
  for (const entry of manifest.filter((e) => e.kind === kind)) {
    const image = await loadPng(join(REAL, entry.file));
    const w = Math.min(CROP_W, image.width);
    const h = Math.min(CROP_H, image.height);
    // A crop from the upper middle, where the labels and borders of the diagrams and pages are.
    const left = Math.max(0, Math.min(image.width - w, Math.round(image.width * 0.25)));
    const top = Math.max(0, Math.min(image.height - h, Math.round(image.height * 0.15)));
    const before = renderSvg(vectorize(image, { engine: 'spline' }).svg);
    const after = renderSvg(vectorize(image).svg);
    const raw = Buffer.from(image.data.buffer, image.data.byteOffset, image.data.length);
    const vt = renderSvg(
      vectorizeRawSync(raw, { width: image.width, height: image.height }, vtracerConfig({ ...DEFAULT_PARAMETERS })),
    );
    rows.push(await Promise.all([image, before, after, vt].map((px) => tile(px, left, top, w, h))));
    rowWidth = Math.max(rowWidth, 4 * w * SCALE + 3 * GAP);
    rowHeights.push(h * SCALE);
  }
  const height = rowHeights.reduce((a, b) => a + b + GAP, 0);
  const composites: OverlayOptions[] = [];
  let y = 0;
  rows.forEach((tiles, r) => {
    tiles.forEach((input, c) => {
      composites.push({ input, left: c * ((rowWidth - 3 * GAP) / 4 + GAP), top: y });
    });
    y += rowHeights[r]! + GAP;
  });
  await sharp({ create: { width: rowWidth, height, channels: 3, background: '#808080' } })
    .composite(composites)
    .png({ compressionLevel: 9 })
    .toFile(join(OUT, `${kind}.png`));
  rowHeights = [];
  console.log(`${kind}: ${rows.length} images -> ${join(OUT, `${kind}.png`)}`);
}
