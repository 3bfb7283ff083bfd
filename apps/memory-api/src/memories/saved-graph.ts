import { createHash } from 'node:crypto';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { HnswIndex, type HnswOptions } from '@trove/embeddings';

/**
 * The in-process vector graph kept across restarts of the embedded database: hnswlib's file
 * (`file`: vectors, links, deletion marks) and beside it (`file.json`) what it cannot hold: the
 * model, the memory id at each label, a fingerprint of each vector and a hash of the graph file.
 */
interface SavedFile {
  model: string;
  dimensions: number;
  sha1: string;
  /** The memory id at each label of the graph; null where deleted. */
  labels: (string | null)[];
  /** The `fingerprint` of the vector at each label (0 where deleted). */
  prints: number[];
}

/** A graph read back, with the fingerprint of each memory's vector in it. */
export interface SavedGraph {
  graph: HnswIndex;
  prints: Map<string, number>;
}

const sha1 = (bytes: Buffer) => createHash('sha1').update(bytes).digest('hex');

/**
 * 53 bits of a vector's float32 bits (two 32-bit FNV-1a-style hashes): the same print means, all
 * but surely, the same vector, at a fraction of reading the vector back out of the graph.
 */
export function fingerprint(vector: Float32Array): number {
  const words = new Uint32Array(vector.buffer, vector.byteOffset, vector.length);
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ vector.length;
  for (let i = 0; i < words.length; i++) {
    const w = words[i] as number;
    a = Math.imul(a ^ w, 0x01000193);
    b = Math.imul(b ^ w, 0x5bd1e995);
  }
  return (a >>> 0) * 0x200000 + ((b >>> 0) & 0x1fffff);
}

/** The graph `writeSavedGraph` wrote to `file`, if it is there, whole (by its hash), and of this model. */
export function readSavedGraph(
  file: string,
  model: string,
  dimensions: number,
  options: HnswOptions,
): SavedGraph | undefined {
  try {
    const saved = JSON.parse(readFileSync(`${file}.json`, 'utf8')) as SavedFile;
    if (saved.model !== model || saved.dimensions !== dimensions || saved.sha1 !== sha1(readFileSync(file))) return;
    const graph = HnswIndex.load(file, dimensions, saved.labels, options);
    const prints = new Map<string, number>();
    saved.labels.forEach((id, label) => {
      if (id !== null) prints.set(id, saved.prints[label] as number);
    });
    return { graph, prints };
  } catch {
    return; // none saved, or unreadable: a plain build
  }
}

/**
 * Writes `graph` and its sidecar, each through a temporary file and a rename, so that a start
 * never reads half of one (the hash catches a graph renamed without its sidecar). `vectors`
 * holds the vector the graph holds for each memory.
 */
export function writeSavedGraph(
  file: string,
  model: string,
  graph: HnswIndex,
  vectors: Map<string, Float32Array>,
): void {
  const labels = graph.save(`${file}.tmp`);
  const prints = labels.map((id) => {
    const vector = id === null ? undefined : vectors.get(id);
    return vector ? fingerprint(vector) : 0;
  });
  const saved: SavedFile = {
    model,
    dimensions: graph.dimensions,
    sha1: sha1(readFileSync(`${file}.tmp`)),
    labels,
    prints,
  };
  writeFileSync(`${file}.json.tmp`, JSON.stringify(saved));
  renameSync(`${file}.tmp`, file);
  renameSync(`${file}.json.tmp`, `${file}.json`);
}
