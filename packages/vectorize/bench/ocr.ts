/** OCR with tesseract (Debian's tesseract-ocr) for the text benchmark and its test. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { onWhite, type Pixels } from './quality.ts';
import { wordsOf } from './text-images.ts';

/** Why tesseract cannot run here, or undefined when it can. */
export function tesseractAbsent(): string | undefined {
  return spawnSync('tesseract', ['--version'], { stdio: 'ignore' }).error ? 'tesseract is not on the PATH' : undefined;
}

/**
 * The words tesseract reads on a picture composited on white and enlarged 2x (it reads 11 px text
 * poorly at 1x), as wordsOf cuts them, in sparse-text mode (diagrams have no paragraphs); only
 * those read with at least `minConfidence` (0-100), to keep the source's words to the ones it is
 * sure of.
 */
export async function ocrWords(
  pixels: Pixels,
  minConfidence = 0,
  scale = Number(process.env.OCR_SCALE ?? 2),
): Promise<string[]> {
  const rgb = onWhite(pixels);
  const dir = mkdtempSync(join(tmpdir(), 'trove-ocr-'));
  try {
    const file = join(dir, 'page.png');
    const png = await sharp(Buffer.from(rgb), { raw: { width: pixels.width, height: pixels.height, channels: 3 } })
      .resize(pixels.width * scale, pixels.height * scale, { kernel: 'lanczos3' })
      .png()
      .toBuffer();
    writeFileSync(file, png);
    // One thread: tesseract's OpenMP threads spin on a small page (measured on 2 cores: several
    // times the system time, and the benchmark's OCR 2x slower), and runs are short and many.
    const run = spawnSync('tesseract', [file, 'stdout', '--psm', '11', '-l', 'eng', 'tsv'], {
      encoding: 'utf8',
      env: { ...process.env, OMP_THREAD_LIMIT: '1' },
    });
    if (run.error) throw new Error(`tesseract could not run (${run.error.message}): apt-get install tesseract-ocr`);
    // TSV: level, page, block, par, line, word, left, top, width, height, conf, text.
    const words: string[] = [];
    for (const line of run.stdout.split('\n').slice(1)) {
      const cells = line.split('\t');
      if (cells.length < 12 || Number(cells[10]) < minConfidence) continue;
      words.push(...wordsOf(cells[11]!));
    }
    return words;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The picture with every channel moved by a deterministic ±`amplitude` (invisible at 1-2). */
function withNoise(pixels: Pixels, amplitude: number): Pixels {
  const data = new Uint8Array(pixels.data);
  let seed = 7 + amplitude;
  for (let i = 0; i < data.length; i++) {
    if ((i & 3) === 3) continue;
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    const step = Math.round(((seed / 2 ** 32) * 2 - 1) * amplitude);
    data[i] = Math.max(0, Math.min(255, data[i]! + step));
  }
  return { ...pixels, data };
}

/**
 * The picture with every channel rounded to `bits` bits (5: steps of 8, at most 4 off; invisible),
 * as a palette moves colours: all pixels of a colour in step, where noise moves each on its own.
 */
export function quantized(pixels: Pixels, bits: number): Pixels {
  const step = 2 ** (8 - bits);
  const data = new Uint8Array(pixels.data);
  for (let i = 0; i < data.length; i++) {
    if ((i & 3) !== 3) data[i] = Math.min(255, Math.round(data[i]! / step) * step);
  }
  return { ...pixels, data };
}

/** The words of `words` (a multiset) that `read` also holds. */
function alsoIn(words: string[], read: string[]): string[] {
  const left = new Map<string, number>();
  for (const word of read) left.set(word, (left.get(word) ?? 0) + 1);
  return words.filter((word) => {
    const n = left.get(word) ?? 0;
    if (n > 0) left.set(word, n - 1);
    return n > 0;
  });
}

export interface SourceWords {
  /** Read with `minConfidence` on the source and also on two copies with invisible noise. */
  underNoise: string[];
  /** Of those, the ones also read on the source with its colours rounded to 6 and to 5 bits. */
  steady: string[];
}

/**
 * The words tesseract reads on the source steadily: with `minConfidence`, and also on copies of it
 * that nobody can tell from it. On 9-px text a tesseract reading flips under such changes, so a
 * word it reads only on the exact source says more about the reader than about a trace:
 * - two copies with every channel moved by a random ±1 and ±2 (a terminal screenshot's own source
 *   with ±1 noise loses 17 % of its words);
 * - two with every channel rounded to 6 and to 5 bits (at most 2 and 4 off), colours moved in
 *   step, as any palette moves them: a notebook page with dark output cells reads 0.40 of its
 *   noise-steady words rounded to 5 bits.
 */
export async function steadyWords(pixels: Pixels, minConfidence: number): Promise<SourceWords> {
  let underNoise = await ocrWords(pixels, minConfidence);
  for (const amplitude of [1, 2]) underNoise = alsoIn(underNoise, await ocrWords(withNoise(pixels, amplitude)));
  let steady = underNoise;
  for (const bits of [6, 5]) steady = alsoIn(steady, await ocrWords(quantized(pixels, bits)));
  return { underNoise, steady };
}

/** Share of `source` (a multiset) also in `render`. */
export function wordRecall(source: string[], render: string[]): number {
  return source.length === 0 ? 1 : alsoIn(source, render).length / source.length;
}
