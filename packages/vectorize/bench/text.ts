/**
 * Text and thin lines: OCR word recall, ink colour and line continuity of the default trace
 * (engine=auto) beside vtracer (its defaults), on the pictures of text-images.ts (drawn with resvg)
 * and text-screens.ts (our pages through headless chromium).
 *
 *   npx tsx packages/vectorize/bench/text.ts        (needs tesseract: apt-get install tesseract-ocr)
 *   BENCH_ONLY=shell,diff npx tsx packages/vectorize/bench/text.ts   (only pictures so named)
 *   npx tsx packages/vectorize/bench/text.ts a.png b.png   (held-out pictures instead: no ink
 *   colours known, so no ΔE; the words of fixtures/real pictures come from their sources)
 *
 * - OCR word recall: tesseract reads the source, and the render of each SVG at the input size;
 *   recall = share of the source's words (as a multiset, punctuation trimmed, two characters or
 *   more, read with confidence 80 or more and steadily (ocr.ts: steadyWords: also on copies of the
 *   source with invisible noise, and with its colours rounded to 6 and 5 bits), and only words the
 *   picture really holds: tesseract reads line-number gutters as noise) that it also reads on the
 *   render (any confidence). Both are enlarged 2x the same way first, since tesseract reads 11 px
 *   text poorly at 1x (OCR_SCALE changes it).
 * - Ink ΔE: per ink colour, the pixels drawn fully in it (before noise); CIEDE2000 between the
 *   source's median colour there and the render's. The worst ink per image is printed.
 * - Noise-steady words (the count before 2026-12-06: words steady under noise, whether or not they
 *   survive rounding): how many, the share ours reads, and the share the source itself rounded to
 *   5 bits reads (the reader's floor on them: on pages where it is low, the words flip with
 *   colours nobody can tell apart, and no palette can be held to them).
 * - Edge F1: the edge maps of source and render (quality.ts), which falls when thin lines break.
 * Exit code 1 when the default's recall is under 0.9 or its worst ink ΔE over 3 on any image.
 */
import { vectorizeRawSync } from '@neplex/vectorizer';
import { median } from '@trove/stats';
import { vectorize } from '../src/index.ts';
import { DEFAULT_PARAMETERS } from '../src/options.ts';
import { deltaE } from './color-difference.ts';
import { ocrWords, quantized, wordRecall as recall, steadyWords } from './ocr.ts';
import { isSelected } from './only.ts';
import { compare, loadPng, onWhite, type Pixels, renderSvg } from './quality.ts';
import { runWithServiceHeap } from './service-heap.ts';
import { vtracerConfig } from './settings.ts';
import { type TextImage, textImages } from './text-images.ts';
import { realVocabulary, textScreens, zoomedPageVocabulary } from './text-screens.ts';
import { timeInterleaved } from './timing.ts';

runWithServiceHeap();

const MIN_RECALL = 0.9;
/** Source words count only when tesseract reads them with this confidence (it misreads small text). */
const SOURCE_CONFIDENCE = 80;
const MAX_INK_DELTA_E = 3;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);

const hex = (color: string) => [1, 3, 5].map((i) => Number.parseInt(color.slice(i, i + 2), 16));

function medianColor(rgb: Uint8Array, indexes: number[]): number[] {
  return [0, 1, 2].map((c) => median(indexes.map((i) => rgb[3 * i + c]!)));
}

/**
 * Worst CIEDE2000 over the inks between the source's and the render's median colour on ink pixels;
 * NaN when no ink has 10 pixels drawn fully in it (thin strokes of a light face may have none).
 */
function worstInkDelta(entry: TextImage, rendered: Pixels): number {
  const source = onWhite(entry.image);
  const render = onWhite(rendered);
  const clean = onWhite(entry.clean);
  let worst = Number.NaN;
  for (const ink of entry.inks) {
    const [r, g, b] = hex(ink);
    const indexes: number[] = [];
    for (let i = 0; i < clean.length / 3; i++) {
      if (clean[3 * i] === r && clean[3 * i + 1] === g && clean[3 * i + 2] === b) indexes.push(i);
    }
    if (indexes.length < 10) continue;
    const delta = deltaE(medianColor(source, indexes), medianColor(render, indexes));
    worst = Number.isNaN(worst) ? delta : Math.max(worst, delta);
  }
  return worst;
}

const f = (v: number, d = 2) => (Number.isNaN(v) ? '–' : Number.isFinite(v) ? v.toFixed(d) : 'inf');

let ok = true;
const rows: string[][] = [];
// Pictures named on the command line are held-out checks: no ink colours known; the words are
// those of the picture's source when it is one of fixtures/real (graphviz or HTML) or one of our
// pages taken zoomed (text-screens.ts --zoom), else every word tesseract reads on the source.
const heldOut: TextImage[] = await Promise.all(
  process.argv.slice(2).map(async (path) => {
    const image = await loadPng(path);
    const name = path.split('/').pop() ?? path;
    const words = realVocabulary(name) ?? zoomedPageVocabulary(name) ?? new Set<string>();
    return { name, kind: 'screenshot', image, clean: image, inks: [], words };
  }),
);
const entries = (heldOut.length > 0 ? heldOut : [...textImages(), ...(await textScreens())]).filter((entry) =>
  isSelected(entry.name),
);
// Warm, as a running service is: every image through our engine a few times before any is timed,
// so V8 has compiled the code for each path (the first image would otherwise pay for it).
for (const { image } of entries) for (let i = 0; i < 3; i++) vectorize(image, {});
// Every image timed before any is rendered or read: rendering and OCR leave large buffers that the
// collector would otherwise reclaim in the middle of our side's timing (one image at 1.3x in one
// run, 0.9x in the next).
const timings = entries.map(({ image }) => {
  const raw = Buffer.from(image.data.buffer, image.data.byteOffset, image.data.length);
  const size = { width: image.width, height: image.height };
  return timeInterleaved(
    () => vectorize(image, {}).svg,
    () => vectorizeRawSync(raw, size, vtracerConfig({ ...DEFAULT_PARAMETERS })),
    ROUNDS,
  );
});
for (const [index, entry] of entries.entries()) {
  const { image } = entry;
  const [ours, theirs] = timings[index]!;
  const engine = vectorize(image, {}).engineUsed;
  // What tesseract reads on the source and is really there (not noise read into the gutter).
  const held = (word: string) => entry.words.size === 0 || entry.words.has(word);
  const source = await steadyWords(image, SOURCE_CONFIDENCE);
  const sourceWords = source.steady.filter(held);
  const noiseSteady = source.underNoise.filter(held);
  const sides = [ours, theirs].map((side) => {
    const rendered = renderSvg(side.out);
    return { side, rendered, quality: compare(image, side.out) };
  });
  const measured = [];
  for (const { side, rendered, quality } of sides) {
    const read = await ocrWords(rendered);
    measured.push({
      recall: recall(sourceWords, read),
      noiseRecall: recall(noiseSteady, read),
      ink: worstInkDelta(entry, rendered),
      ...quality,
      ms: side.ms,
      bytes: side.out.length,
    });
  }
  const [o, t] = measured as [(typeof measured)[0], (typeof measured)[0]];
  // The reader's floor on the noise-steady words: the source with its colours moved by at most 4.
  const floor = recall(noiseSteady, await ocrWords(quantized(image, 5)));
  if (o.recall < MIN_RECALL || o.ink > MAX_INK_DELTA_E) ok = false;
  rows.push([
    `${entry.name} ${image.width}x${image.height}`,
    engine,
    String(sourceWords.length),
    f(o.recall),
    f(t.recall),
    String(noiseSteady.length),
    f(o.noiseRecall),
    f(floor),
    f(o.ink, 1),
    f(t.ink, 1),
    f(o.edges, 3),
    f(t.edges, 3),
    f(o.psnr),
    f(t.psnr),
    String(o.bytes),
    String(t.bytes),
    f(o.ms, 1),
    f(t.ms, 1),
  ]);
}

const header = [
  'image',
  'engine',
  'words',
  'recall',
  'vt',
  'n-words',
  'n-recall',
  '5-bit',
  'inkΔE',
  'vt',
  'edge F1',
  'vt',
  'PSNR',
  'vt',
  'bytes',
  'vt',
  'ms',
  'vt',
];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
const line = (cells: string[]) =>
  cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
console.log('Text and thin lines: ours (defaults, engine=auto) | vtracer (defaults), same run');
console.log(line(header));
for (const row of rows) console.log(line(row));
const ratios = timings.map(([ours, theirs], i) => ({ name: entries[i]!.name, ratio: ours.ms / theirs.ms }));
const slowest = ratios.reduce((a, b) => (b.ratio > a.ratio ? b : a), ratios[0]!);
if (ratios.length > 0)
  console.log(
    `\nTime ours/vtracer per image: median ${f(median(ratios.map((r) => r.ratio)))}, ` +
      `largest ${f(slowest.ratio)} (${slowest.name}), ${ratios.filter((r) => r.ratio > 1.2).length} above 1.2.`,
  );
console.log(
  ok
    ? `\nEvery image: recall >= ${MIN_RECALL}, worst ink ΔE2000 <= ${MAX_INK_DELTA_E}.`
    : `\nFAIL: some image has recall < ${MIN_RECALL} or an ink ΔE2000 > ${MAX_INK_DELTA_E}.`,
);
process.exitCode = ok ? 0 : 1;
