import { mkdir, open, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { scanWinkJson } from './wink-json.ts';

/**
 * Word vectors in a compact binary form. The npm package ships them as a 300 MB JSON file (read
 * by scanning its bytes: wink-json.ts); converted once to int8 (one scale per word) they are
 * 35 MB on disk and in memory and load in well under a second.
 *
 * Layout: "TROVEGLV" | u32 version | u32 count | u32 dims | u32 vocabBytes | vocab (UTF-8, one
 * word per line, in frequency order) | padding to 4 | f32 scale × count | i8 vector × count × dims
 */
export interface CompactVectors {
  /** Word -> rank (0 = most frequent). */
  ranks: Map<string, number>;
  count: number;
  dims: number;
  scales: Float32Array;
  vectors: Int8Array;
}

const MAGIC = 'TROVEGLV';
const VERSION = 1;
const HEADER_BYTES = 8 + 4 * 4;

/** Converts the package's JSON to the compact file, writing it atomically. */
export async function buildCompactVectors(sourceJson: string, target: string): Promise<void> {
  // Quantised as they are read, in the word list's order; words without a vector are dropped after.
  let dims = 0;
  let allWords: string[] = [];
  let firstIndex = new Map<string, number>();
  let scales = new Float32Array(0);
  let vectors = new Int8Array(0);
  let hasVector = new Uint8Array(0);
  scanWinkJson(await readFile(sourceJson), (header) => {
    dims = header.dimensions;
    allWords = header.words;
    firstIndex = new Map();
    allWords.forEach((word, i) => {
      if (!firstIndex.has(word)) firstIndex.set(word, i);
    });
    scales = new Float32Array(allWords.length);
    vectors = new Int8Array(allWords.length * dims);
    hasVector = new Uint8Array(allWords.length);
    return (word, values, length) => {
      const i = firstIndex.get(word);
      if (i === undefined || length < dims) return;
      let max = 0;
      for (let d = 0; d < dims; d++) max = Math.max(max, Math.abs(values[d] as number));
      const scale = max / 127 || 1;
      scales[i] = scale;
      for (let d = 0; d < dims; d++) vectors[i * dims + d] = Math.round((values[d] as number) / scale);
      hasVector[i] = 1;
    };
  });
  const kept = allWords.flatMap((word, i) => {
    const first = firstIndex.get(word) as number;
    return hasVector[first] && !word.includes('\n') ? [{ word, first, i }] : [];
  });
  const words = kept.map((k) => k.word);
  const count = words.length;
  if (count < allWords.length || kept.some((k) => k.first !== k.i)) {
    const keptScales = new Float32Array(count);
    const keptVectors = new Int8Array(count * dims);
    kept.forEach(({ first }, rank) => {
      keptScales[rank] = scales[first] as number;
      keptVectors.set(vectors.subarray(first * dims, (first + 1) * dims), rank * dims);
    });
    scales = keptScales;
    vectors = keptVectors;
  }

  const vocab = Buffer.from(words.join('\n'), 'utf8');
  const padding = (4 - ((HEADER_BYTES + vocab.length) % 4)) % 4;
  const header = Buffer.alloc(HEADER_BYTES);
  header.write(MAGIC, 0, 'latin1');
  header.writeUInt32LE(VERSION, 8);
  header.writeUInt32LE(count, 12);
  header.writeUInt32LE(dims, 16);
  header.writeUInt32LE(vocab.length, 20);
  await mkdir(dirname(target), { recursive: true });
  const partial = `${target}.${process.pid}.partial`;
  await writeFile(
    partial,
    Buffer.concat([
      header,
      vocab,
      Buffer.alloc(padding),
      Buffer.from(scales.buffer, scales.byteOffset, scales.byteLength),
      Buffer.from(vectors.buffer, vectors.byteOffset, vectors.byteLength),
    ]),
  );
  await rename(partial, target);
}

export async function loadCompactVectors(file: string): Promise<CompactVectors> {
  const handle = await open(file, 'r');
  let bytes: Buffer;
  try {
    bytes = await handle.readFile();
  } finally {
    await handle.close();
  }
  if (bytes.toString('latin1', 0, 8) !== MAGIC || bytes.readUInt32LE(8) !== VERSION) {
    throw new Error(`${file} is not a compact vector file of version ${VERSION}`);
  }
  const count = bytes.readUInt32LE(12);
  const dims = bytes.readUInt32LE(16);
  const vocabBytes = bytes.readUInt32LE(20);
  const words = bytes.toString('utf8', HEADER_BYTES, HEADER_BYTES + vocabBytes).split('\n');
  const scalesAt = HEADER_BYTES + vocabBytes + ((4 - ((HEADER_BYTES + vocabBytes) % 4)) % 4);
  const vectorsAt = scalesAt + count * 4;
  if (words.length !== count || bytes.length !== vectorsAt + count * dims) {
    throw new Error(`${file} is truncated or corrupt; delete it to rebuild`);
  }
  // Copies, so the arrays are aligned and the file buffer can be released.
  const scales = new Float32Array(bytes.buffer.slice(bytes.byteOffset + scalesAt, bytes.byteOffset + vectorsAt));
  const vectors = new Int8Array(bytes.buffer.slice(bytes.byteOffset + vectorsAt, bytes.byteOffset + bytes.length));
  // Filled in a loop, not from 341k [word, rank] pairs made only to be collected.
  const ranks = new Map<string, number>();
  for (let rank = 0; rank < words.length; rank++) ranks.set(words[rank] as string, rank);
  return { ranks, count, dims, scales, vectors };
}
