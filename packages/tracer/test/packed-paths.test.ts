import { readFileSync } from 'node:fs';
import { vectorize } from '@trove/vectorize';
import sharp from 'sharp';
import { expect, it } from 'vitest';
import { packPaths, unpackPaths } from '../src/packed-paths.ts';

it('packing a traced path list into typed arrays and back gives the same paths', async () => {
  const png = readFileSync(new URL('../../../packages/vectorize/fixtures/badge-translucent-160.png', import.meta.url));
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const image = { width: info.width, height: info.height, data: new Uint8Array(data) };
  const { paths } = vectorize(image, { engine: 'spline', path_precision: 3 });
  expect(paths.some((path) => path.commands.some((command) => command[0] === 'C'))).toBe(true);
  expect(paths.some((path) => path.color.a < 255)).toBe(true);
  expect(unpackPaths(packPaths(paths))).toEqual(paths);
});
