import { describe, expect, it } from 'vitest';
import { missing } from '../../../tests/support/requirements.ts';
import { ocrWords, tesseractAbsent, wordRecall } from '../bench/ocr.ts';
import { renderSvg } from '../bench/quality.ts';
import { textImages } from '../bench/text-images.ts';
import { textScreens } from '../bench/text-screens.ts';
import { vectorize } from '../src/index.ts';

const TESSERACT = { name: 'tesseract', absent: tesseractAbsent, install: 'apt-get install tesseract-ocr' };

describe.skipIf(missing(TESSERACT))('auto keeps text readable (tesseract)', () => {
  // The diagram (11 px labels) and the code screenshot (13 px monospace in six colours) of the benchmark.
  it.each(['diagram-pipeline', 'code-screenshot'])(
    '%s: OCR reads at least 0.9 of its words on the trace',
    async (name) => {
      const entry = textImages().find((image) => image.name === name)!;
      const source = (await ocrWords(entry.image)).filter((word) => entry.words.has(word));
      expect(source.length).toBeGreaterThan(30);
      const traced = renderSvg(vectorize(entry.image).svg);
      expect(wordRecall(source, await ocrWords(traced))).toBeGreaterThanOrEqual(0.9);
    },
    60_000,
  );

  // As `dot -Tpng` writes it: 9-pt record fields, 8-pt edge labels, and a half-clear last column
  // that once sent the whole picture to the spline engine (recall 0.00).
  it('a graphviz record diagram straight from dot: OCR reads at least 0.9 of its words on the trace', async () => {
    const entry = (await textScreens()).find((image) => image.name === 'accounts (graphviz)')!;
    const source = (await ocrWords(entry.image)).filter((word) => entry.words.has(word));
    expect(source.length).toBeGreaterThan(20);
    const result = vectorize(entry.image);
    expect(result.engineUsed).toBe('pixel-exact');
    expect(wordRecall(source, await ocrWords(renderSvg(result.svg)))).toBeGreaterThanOrEqual(0.9);
  }, 60_000);
});
