/**
 * Times the stages of one trace, for tuning. Run: npx tsx bench/profile.ts <fixture.png> [preset]
 */
import { join } from 'node:path';
import { vectorize } from '../src/index.ts';
import { loadPng } from './quality.ts';

const file = process.argv[2] ?? 'photo-like-480x320.png';
const preset = process.argv[3] as 'poster' | 'photo' | undefined;
const image = await loadPng(join(import.meta.dirname, '..', 'fixtures', file));
const times: number[] = [];
for (let i = 0; i < 8; i++) {
  const start = performance.now();
  vectorize(image, { engine: 'spline', ...(preset ? { preset } : {}) });
  times.push(performance.now() - start);
}
console.log(`${file} ${preset ?? 'default'}: ${times.map((t) => t.toFixed(1)).join(' ')} ms`);
