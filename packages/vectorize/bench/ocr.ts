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
 * poorly at 1x), as wordsOf cuts them.
 */
export async function ocrWords(pixels: Pixels): Promise<string[]> {
  const rgb = onWhite(pixels);
  const dir = mkdtempSync(join(tmpdir(), 'trove-ocr-'));
  try {
    const file = join(dir, 'page.png');
    const png = await sharp(Buffer.from(rgb), { raw: { width: pixels.width, height: pixels.height, channels: 3 } })
      .resize(pixels.width * 2, pixels.height * 2, { kernel: 'lanczos3' })
      .png()
      .toBuffer();
    writeFileSync(file, png);
    const run = spawnSync('tesseract', [file, 'stdout', '--psm', '3', '-l', 'eng'], { encoding: 'utf8' });
    if (run.error) throw new Error(`tesseract could not run (${run.error.message}): apt-get install tesseract-ocr`);
    return wordsOf(run.stdout);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Share of `source` (a multiset) also in `render`. */
export function wordRecall(source: string[], render: string[]): number {
  if (source.length === 0) return 1;
  const left = new Map<string, number>();
  for (const word of render) left.set(word, (left.get(word) ?? 0) + 1);
  let found = 0;
  for (const word of source) {
    const n = left.get(word) ?? 0;
    if (n > 0) {
      found++;
      left.set(word, n - 1);
    }
  }
  return found / source.length;
}
