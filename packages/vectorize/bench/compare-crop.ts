/**
 * Writes enlarged crops of the input, our rendering and vtracer's to /tmp (in.png, ours.png, vt.png)
 * for eyeballing. Run: npx tsx bench/compare-crop.ts <fixture.png> [default|poster|photo] [x,y,w,h]
 */
import { join } from 'node:path';
import { vectorizeRawSync } from '@neplex/vectorizer';
import sharp from 'sharp';
import { vectorize } from '../src/index.ts';
import { loadPng, type Pixels, renderSvg } from './quality.ts';
import { SETTINGS, vtracerConfig } from './settings.ts';

const file = process.argv[2] ?? 'icon-flat-64.png';
const setting = SETTINGS[process.argv[3] ?? 'default']!;
const image = await loadPng(join(import.meta.dirname, '..', 'fixtures', file));
const [x, y, w, h] = (process.argv[4] ?? `0,0,${image.width},${image.height}`).split(',').map(Number) as number[];
const ours = vectorize(image, { engine: 'spline', ...setting }).svg;
const vt = vectorizeRawSync(
  Buffer.from(image.data),
  { width: image.width, height: image.height },
  vtracerConfig(setting),
);
const scale = Math.max(1, Math.floor(480 / Math.max(w!, h!)));
const crop = (px: Pixels, name: string) =>
  sharp(Buffer.from(px.data), { raw: { width: px.width, height: px.height, channels: 4 } })
    .extract({ left: x!, top: y!, width: w!, height: h! })
    .flatten({ background: '#ffffff' })
    .resize(w! * scale, h! * scale, { kernel: 'nearest' })
    .png()
    .toFile(`/tmp/${name}.png`);
await crop(image, 'in');
await crop(renderSvg(ours), 'ours');
await crop(renderSvg(vt), 'vt');
// One side-by-side picture: input | ours | vtracer.
const parts = await Promise.all(
  ['in', 'ours', 'vt'].map((n) => sharp(`/tmp/${n}.png`).toBuffer({ resolveWithObject: true })),
);
const tileWidth = parts[0]!.info.width;
await sharp({ create: { width: tileWidth * 3 + 20, height: parts[0]!.info.height, channels: 3, background: '#888' } })
  .composite(parts.map((p, i) => ({ input: p.data, left: i * (tileWidth + 10), top: 0 })))
  .png()
  .toFile('/tmp/side.png');
