/**
 * The real-picture set (fixtures/real, made by bench/make-real-images.ts): ours with default
 * options (`engine=auto`, what a caller gets without choosing) against vtracer with its defaults,
 * interleaved in one run. Prints each image, medians per kind and overall, and fails (exit code 1)
 * when a kind's median PSNR or edge F1 falls, or its median bytes grow, past bench/real-figures.json.
 * BENCH_WRITE_FIGURES=1 rewrites that file from this run, keeping per figure the better value.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { vectorizeRawSync } from '@neplex/vectorizer';
import { median } from '@trove/stats';
import { vectorize } from '../src/index.ts';
import { DEFAULT_PARAMETERS } from '../src/options.ts';
import { isSelected, subsetOnly } from './only.ts';
import { compare, loadPng, type Quality } from './quality.ts';
import { vtracerConfig } from './settings.ts';
import { timeInterleaved } from './timing.ts';

const REAL = join(import.meta.dirname, '..', 'fixtures', 'real');
const FIGURES = join(import.meta.dirname, 'real-figures.json');
const KINDS = ['photo', 'diagram', 'screenshot', 'icon', 'logo'] as const;

interface Side extends Quality {
  ms: number;
  bytes: number;
}
interface RealRow {
  file: string;
  kind: string;
  engine: string;
  ours: Side;
  theirs: Side;
}
type Figures = Record<string, { psnr: number; edges: number; bytes: number }>;

const fmt = (v: number, digits = 2): string => (Number.isFinite(v) ? v.toFixed(digits) : 'inf');
const cells = (values: (string | number)[], widths: number[]): string =>
  values.map((v, i) => (i === 0 ? String(v).padEnd(widths[0]!) : String(v).padStart(widths[i]!))).join(' ');

export async function benchReal(rounds: number): Promise<boolean> {
  const manifest: { file: string; kind: string }[] = JSON.parse(readFileSync(join(REAL, 'manifest.json'), 'utf8'));
  const vtConfig = vtracerConfig({ ...DEFAULT_PARAMETERS });
  const rows: RealRow[] = [];
  const widths = [36, 10, 8, 8, 6, 9, 8, 8, 8, 9, 9, 11];
  console.log('\nReal set: ours (defaults, engine=auto) against vtracer (defaults), same run');
  console.log(
    cells(
      [
        'image',
        'engine',
        'ms ours',
        'ms vt',
        'ratio',
        'PSNR ours',
        'PSNR vt',
        'edge ours',
        'edge vt',
        'bytes ours',
        'bytes vt',
        'kind',
      ],
      widths,
    ),
  );
  const entries = manifest.filter((entry) => isSelected(entry.file));
  const images = await Promise.all(entries.map((entry) => loadPng(join(REAL, entry.file))));
  // Steady state, as in a running service: every image through both sides, unmeasured, before
  // any is timed (about 50 ms per side and image), so V8 has compiled our code for every path the
  // set takes (photos, flat logos, diagrams); otherwise whichever image comes first pays for it.
  for (const image of images) {
    const raw = Buffer.from(image.data.buffer, image.data.byteOffset, image.data.length);
    const size = { width: image.width, height: image.height };
    const start = performance.now();
    for (let k = 0; k < 20 && performance.now() - start < 100; k++) {
      vectorize(image, {});
      vectorizeRawSync(raw, size, vtConfig);
    }
  }
  for (const [index, entry] of entries.entries()) {
    const image = images[index]!;
    const raw = Buffer.from(image.data.buffer, image.data.byteOffset, image.data.length);
    const size = { width: image.width, height: image.height };
    const [timedOurs, timedTheirs] = timeInterleaved(
      () => vectorize(image, {}),
      () => vectorizeRawSync(raw, size, vtConfig),
      rounds,
    );
    const { svg: oursSvg, engineUsed: engine } = timedOurs.out;
    const theirsSvg = timedTheirs.out;
    const ours: Side = { ms: timedOurs.ms, bytes: oursSvg.length, ...compare(image, oursSvg) };
    const theirs: Side = { ms: timedTheirs.ms, bytes: theirsSvg.length, ...compare(image, theirsSvg) };
    rows.push({ file: entry.file, kind: entry.kind, engine, ours, theirs });
    console.log(
      cells(
        [
          entry.file,
          engine,
          fmt(ours.ms, 1),
          fmt(theirs.ms, 1),
          fmt(ours.ms / theirs.ms),
          fmt(ours.psnr),
          fmt(theirs.psnr),
          fmt(ours.edges, 3),
          fmt(theirs.edges, 3),
          ours.bytes,
          theirs.bytes,
          entry.kind,
        ],
        widths,
      ),
    );
  }
  if (rows.length === 0) return true;

  console.log('\nReal set, medians per kind (time ratio = median over images of ours / vtracer)');
  const kw = [12, 7, 11, 9, 8, 6, 9, 8, 11, 9, 6];
  console.log(
    cells(
      [
        'kind',
        'images',
        'time ratio',
        'max ratio',
        'PSNR ours',
        'vt',
        'edge ours',
        'edge vt',
        'bytes ours',
        'bytes vt',
        'ratio',
      ],
      kw,
    ),
  );
  const measured: Figures = {};
  for (const kind of [...KINDS, 'all']) {
    const group = kind === 'all' ? rows : rows.filter((r) => r.kind === kind);
    if (group.length === 0) continue;
    const m = (pick: (r: RealRow) => number): number => median(group.map(pick));
    const ratios = group.map((r) => r.ours.ms / r.theirs.ms);
    const figures = { psnr: m((r) => r.ours.psnr), edges: m((r) => r.ours.edges), bytes: m((r) => r.ours.bytes) };
    measured[kind] = figures;
    const bytesVt = m((r) => r.theirs.bytes);
    console.log(
      cells(
        [
          kind,
          group.length,
          fmt(median(ratios)),
          fmt(Math.max(...ratios)),
          fmt(figures.psnr),
          fmt(m((r) => r.theirs.psnr)),
          fmt(figures.edges, 3),
          fmt(
            m((r) => r.theirs.edges),
            3,
          ),
          fmt(figures.bytes, 0),
          fmt(bytesVt, 0),
          fmt(figures.bytes / bytesVt),
        ],
        kw,
      ),
    );
  }
  if (subsetOnly) return true;
  if (process.env.BENCH_WRITE_FIGURES === '1') {
    // Per figure the better of committed and measured: a rewrite never lowers a floor (a trade-off
    // that means to, say, PSNR for bytes, edits the file by hand).
    const committed: Figures = JSON.parse(readFileSync(FIGURES, 'utf8'));
    const kept: Figures = {};
    for (const [kind, now] of Object.entries(measured)) {
      const was = committed[kind] ?? now;
      kept[kind] = {
        psnr: Math.max(now.psnr, was.psnr),
        edges: Math.max(now.edges, was.edges),
        bytes: Math.min(now.bytes, was.bytes),
      };
    }
    writeFileSync(FIGURES, `${JSON.stringify(kept, null, 2)}\n`);
    console.log(`\nwrote ${FIGURES}`);
    return true;
  }
  return checkFigures(measured);
}

/** Small slack: resvg and float rounding are deterministic, so any real change shows up. */
function checkFigures(measured: Figures): boolean {
  const committed: Figures = JSON.parse(readFileSync(FIGURES, 'utf8'));
  const failures: string[] = [];
  for (const [kind, was] of Object.entries(committed)) {
    const now = measured[kind];
    if (!now) continue;
    if (now.psnr < was.psnr - 0.01) failures.push(`${kind}: median PSNR ${fmt(now.psnr)} < committed ${fmt(was.psnr)}`);
    if (now.edges < was.edges - 0.001)
      failures.push(`${kind}: median edge F1 ${fmt(now.edges, 3)} < committed ${fmt(was.edges, 3)}`);
    if (now.bytes > was.bytes * 1.001) failures.push(`${kind}: median bytes ${now.bytes} > committed ${was.bytes}`);
  }
  if (failures.length > 0) {
    console.log(`\nFAIL: worse than bench/real-figures.json\n  ${failures.join('\n  ')}`);
    return false;
  }
  console.log('\nReal set at or better than bench/real-figures.json on every kind.');
  return true;
}
