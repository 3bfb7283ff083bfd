/** Prints current quality per fast fixture and setting: the numbers test/fixtures.test.ts floors are set from. */
import { join } from 'node:path';
import { vectorize } from '../src/index.ts';
import { FAST_CASES } from '../test/fixture-cases.ts';
import { compare, loadPng } from './quality.ts';

for (const c of FAST_CASES) {
  const image = await loadPng(join(import.meta.dirname, '..', 'fixtures', c.file));
  const result = vectorize(image, c.options);
  const q = compare(image, result.svg);
  console.log(
    `${c.file} ${JSON.stringify(c.options)} psnr=${q.psnr.toFixed(2)} ssim=${q.ssim.toFixed(4)} bytes=${result.svg.length} paths=${result.paths.length}`,
  );
}
