/**
 * Run by onnx-webgpu.test.ts in a process of its own, whose LD_LIBRARY_PATH and VK_ICD_FILENAMES
 * point at lavapipe (the loader reads them once, at start): embeds argv[3..] with the model in
 * argv[2] on webgpu and prints the device and vectors as JSON.
 */
import { OnnxEmbedder } from '../src/onnx/index.ts';

const [dir, ...texts] = process.argv.slice(2);
const embedder = await OnnxEmbedder.open({ dir: dir as string, device: 'webgpu', threads: 1, log: () => {} });
const vectors = await embedder.embed(texts);
process.stdout.write(`${JSON.stringify({ device: embedder.device, vectors: vectors.map((v) => Array.from(v)) })}\n`);
await embedder.close();
