/**
 * Ours against vtracer (@neplex/vectorizer) on the fixture set, same parameters, same run,
 * interleaved so machine noise hits both alike. Prints per-image rows and medians with ratios.
 * Run: npm run bench -w packages/vectorize   (BENCH_ROUNDS=n to change repetitions)
 */
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { vectorizeRawSync } from '@neplex/vectorizer';
import { median } from '@trove/stats';
import { type TraceParameters, type VectorizeOptions, vectorize } from '../src/index.ts';
import { isSelected } from './only.ts';
import { compare, loadPng, type Pixels, type Quality } from './quality.ts';
import { benchReal } from './real.ts';
import { runWithServiceHeap } from './service-heap.ts';
import { SETTINGS, vtracerConfig } from './settings.ts';

runWithServiceHeap();

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
// BENCH_SET=real or generated runs one set; both by default.
const SET = process.env.BENCH_SET;

interface Run {
  ms: number;
  svg: string;
  paths: number;
}

function timeIt(fn: () => { svg: string; paths: number }): Run {
  const start = performance.now();
  const out = fn();
  return { ms: performance.now() - start, ...out };
}

const pathCount = (svg: string): number => svg.split('<path').length - 1;

interface Row {
  image: string;
  setting: string;
  ours: Run & Quality;
  theirs: Run & Quality;
}

function measure(
  image: Pixels,
  options: VectorizeOptions,
  params: TraceParameters,
  rounds = ROUNDS,
  score = true,
): { ours: Run & Quality; theirs: Run & Quality } {
  const raw = Buffer.from(image.data.buffer, image.data.byteOffset, image.data.length);
  const input = { width: image.width, height: image.height, data: image.data };
  const ours: Run[] = [];
  const theirs: Run[] = [];
  for (let round = 0; round < rounds; round++) {
    ours.push(
      timeIt(() => {
        const result = vectorize(input, options);
        return { svg: result.svg, paths: result.paths.length };
      }),
    );
    theirs.push(
      timeIt(() => {
        const svg = vectorizeRawSync(raw, { width: image.width, height: image.height }, vtracerConfig(params));
        return { svg, paths: pathCount(svg) };
      }),
    );
  }
  const summarize = (runs: Run[]): Run & Quality => ({
    ms: median(runs.map((r) => r.ms)),
    svg: runs[0]!.svg,
    paths: runs[0]!.paths,
    ...(score ? compare(image, runs[0]!.svg) : { psnr: 0, ssim: 0, seeThrough: 0, edges: 0 }),
  });
  return { ours: summarize(ours), theirs: summarize(theirs) };
}

const fmt = (v: number, digits = 2): string => (Number.isFinite(v) ? v.toFixed(digits) : 'inf');
const pad = (s: string, n: number): string => s.padStart(n);

async function benchGenerated(): Promise<void> {
  const manifest: { file: string; flat: boolean }[] = JSON.parse(
    await readFile(join(FIXTURES, 'manifest.json'), 'utf8'),
  );
  // Warm up both sides (JIT for ours, page faults for both) on the two smallest images, unmeasured.
  for (const entry of manifest.slice(0, 3)) {
    const image = await loadPng(join(FIXTURES, entry.file));
    for (const params of Object.values(SETTINGS)) measure(image, { engine: 'spline', ...params }, params, 2, false);
  }
  const rows: Row[] = [];
  const exactRows: { image: string; psnr: number; bytes: number; paths: number; ms: number }[] = [];
  console.log(
    `${'image'.padEnd(32)} ${'setting'.padEnd(8)} ${pad('ms ours', 9)} ${pad('ms vt', 9)} ${pad('PSNR ours', 9)} ${pad('PSNR vt', 8)} ${pad('SSIM ours', 9)} ${pad('SSIM vt', 8)} ${pad('paths', 6)} ${pad('vt', 6)} ${pad('bytes ours', 10)} ${pad('bytes vt', 9)} ${pad('gaps', 5)} ${pad('vt', 5)}`,
  );
  for (const entry of manifest) {
    if (!isSelected(entry.file)) continue;
    const image = await loadPng(join(FIXTURES, entry.file));
    for (const [setting, params] of Object.entries(SETTINGS)) {
      const { ours, theirs } = measure(image, { engine: 'spline', ...params }, params);
      rows.push({ image: entry.file, setting, ours, theirs });
      console.log(
        `${entry.file.padEnd(32)} ${setting.padEnd(8)} ${pad(fmt(ours.ms, 1), 9)} ${pad(fmt(theirs.ms, 1), 9)} ${pad(fmt(ours.psnr), 9)} ${pad(fmt(theirs.psnr), 8)} ${pad(fmt(ours.ssim, 4), 9)} ${pad(fmt(theirs.ssim, 4), 8)} ${pad(String(ours.paths), 6)} ${pad(String(theirs.paths), 6)} ${pad(String(ours.svg.length), 10)} ${pad(String(theirs.svg.length), 9)} ${pad(String(ours.seeThrough), 5)} ${pad(String(theirs.seeThrough), 5)}`,
      );
    }
    if (entry.flat) {
      const start = performance.now();
      const result = vectorize(
        { width: image.width, height: image.height, data: image.data },
        { engine: 'pixel-exact' },
      );
      const ms = performance.now() - start;
      const quality = compare(image, result.svg);
      exactRows.push({
        image: entry.file,
        psnr: quality.psnr,
        bytes: result.svg.length,
        paths: result.paths.length,
        ms,
      });
    }
  }

  console.log('\nMedians over images (ratio = ours / vtracer; PSNR and SSIM as differences too)');
  console.log(
    `${'setting'.padEnd(8)} ${pad('ms ours', 9)} ${pad('ms vt', 9)} ${pad('ratio', 6)} ${pad('PSNR ours', 9)} ${pad('PSNR vt', 8)} ${pad('diff', 6)} ${pad('SSIM ours', 9)} ${pad('SSIM vt', 8)} ${pad('paths', 7)} ${pad('vt', 7)} ${pad('bytes ours', 10)} ${pad('bytes vt', 9)} ${pad('ratio', 6)} ${pad('time ratio median', 18)}`,
  );
  for (const setting of Object.keys(SETTINGS)) {
    const group = rows.filter((r) => r.setting === setting);
    if (group.length === 0) continue;
    const m = (pick: (r: Row) => number): number => median(group.map(pick));
    const msOurs = m((r) => r.ours.ms);
    const msVt = m((r) => r.theirs.ms);
    const psnrOurs = m((r) => r.ours.psnr);
    const psnrVt = m((r) => r.theirs.psnr);
    const bytesOurs = m((r) => r.ours.svg.length);
    const bytesVt = m((r) => r.theirs.svg.length);
    const perImageTimeRatio = m((r) => r.ours.ms / r.theirs.ms);
    console.log(
      `${setting.padEnd(8)} ${pad(fmt(msOurs, 1), 9)} ${pad(fmt(msVt, 1), 9)} ${pad(fmt(msOurs / msVt), 6)} ${pad(fmt(psnrOurs), 9)} ${pad(fmt(psnrVt), 8)} ${pad(fmt(psnrOurs - psnrVt), 6)} ${pad(
        fmt(
          m((r) => r.ours.ssim),
          4,
        ),
        9,
      )} ${pad(
        fmt(
          m((r) => r.theirs.ssim),
          4,
        ),
        8,
      )} ${pad(
        fmt(
          m((r) => r.ours.paths),
          0,
        ),
        7,
      )} ${pad(
        fmt(
          m((r) => r.theirs.paths),
          0,
        ),
        7,
      )} ${pad(fmt(bytesOurs, 0), 10)} ${pad(fmt(bytesVt, 0), 9)} ${pad(fmt(bytesOurs / bytesVt), 6)} ${pad(fmt(perImageTimeRatio), 18)}`,
    );
  }
  const gaps = rows.reduce((sum, r) => sum + r.ours.seeThrough, 0);
  console.log(`\nStacked output, pixels where the background shows through (ours, all rows): ${gaps}`);
  if (exactRows.length > 0) {
    console.log('\npixel-exact on flat images');
    for (const r of exactRows) {
      console.log(
        `${r.image.padEnd(32)} PSNR ${pad(fmt(r.psnr), 6)}  paths ${pad(String(r.paths), 4)}  bytes ${pad(String(r.bytes), 8)}  ${fmt(r.ms, 1)} ms`,
      );
    }
    const exact = exactRows.filter((r) => r.psnr === Number.POSITIVE_INFINITY).length;
    console.log(`exact on ${exact} of ${exactRows.length} flat images`);
  }
}

if (SET !== 'real') await benchGenerated();
if (SET !== 'generated' && !(await benchReal(Number(process.env.BENCH_REAL_ROUNDS ?? ROUNDS)))) process.exitCode = 1;
