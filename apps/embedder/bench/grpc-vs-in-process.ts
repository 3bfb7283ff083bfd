/**
 * What going over gRPC costs, and what dynamic batching buys, measured in one run:
 *
 *   npm run bench -w apps/embedder [-- --seconds 1.5 --rounds 3]
 *   npm run bench -w apps/embedder -- --backend onnx [--model DIR | --shape small|base] [--devices cpu,webgpu]
 *
 * 0. With --backend onnx: the model in process on each of --devices at batch 1, 8, 32, 128
 *    (bench/onnx-devices.ts); without --model, the BERT-shaped test model written at BERT-small's
 *    sizes (--shape base: BERT-base's), seeded weights.
 * 1. The model in process (GloVe by default; onnx on the first of --devices) beside the same model
 *    in a real embedder process on loopback, called through memory-api's client (GrpcEmbedder):
 *    texts per second (median of the rounds) and call latency p50/p99, at batch sizes 1, 8, 32,
 *    128 and 1, 8, 32 concurrent callers (onnx: batch 32 with 8 callers, the goal's setup).
 * 2. 32 callers sending one text each to embedders with batching on (BATCH_WINDOW_MS=2, the
 *    default), window 0 (calls that queued while the model ran go together) and off (MAX_BATCH=1).
 *
 * Client and server share this machine's cores, as a sidecar shares its node.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Embedder, GloveEmbedder, GrpcEmbedder } from '@trove/embeddings';
import { type RunningEmbedder, startEmbedder } from '../../../tests/support/processes.ts';
import { Cell, closedLoop, flag, option, sentences } from './load.ts';
import { type BenchModel, benchModel, devicesOption, deviceTable } from './onnx-devices.ts';

const seconds = flag('seconds', 1.5);
const rounds = flag('rounds', 3);
const cacheDir = process.env.EMBEDDINGS_CACHE_DIR ?? join(tmpdir(), 'trove-embeddings-test-cache');

const backend = option('backend') ?? 'glove';
if (backend !== 'glove' && backend !== 'onnx') throw new Error('--backend takes glove or onnx');
let onnx: BenchModel | undefined;
const devices = devicesOption();
if (backend === 'onnx') {
  onnx = await benchModel();
  await deviceTable(onnx, devices, seconds);
  console.log('');
}
const device = devices[0] as string;
// A transformer model is ~1,000 times GloVe's cost per text: the goal's setup only.
const GRID: [batch: number, callers: number][] = onnx
  ? [[32, 8]]
  : [1, 8, 32, 128].flatMap((batch) => [1, 8, 32].map((callers): [number, number] => [batch, callers]));
const texts = onnx?.texts ?? sentences(20_000);
/** The same model in this process and in every embedder started below. */
async function openInProcess(): Promise<Embedder & { close?: () => Promise<void> }> {
  if (!onnx) return GloveEmbedder.open({ cacheDir });
  const { OnnxEmbedder } = await import('@trove/embeddings/onnx');
  return OnnxEmbedder.open({ dir: onnx.dir, device: devices[0] ?? 'cpu', log: () => {} });
}
const local = await openInProcess();
const modelEnv: Record<string, string> = onnx
  ? { EMBEDDER_BACKEND: 'onnx', ONNX_MODEL_DIR: onnx.dir, ONNX_DEVICE: device }
  : { EMBEDDER_BACKEND: 'glove' };

const servers: Record<string, RunningEmbedder> = {};
const clients: Record<string, GrpcEmbedder> = {};
const SERVERS = {
  batching: { BATCH_WINDOW_MS: '2' },
  'window 0': { BATCH_WINDOW_MS: '0' },
  'no batching': { BATCH_WINDOW_MS: '0', MAX_BATCH: '1' },
};
for (const [name, env] of Object.entries(SERVERS)) {
  servers[name] = await startEmbedder({ ...modelEnv, EMBEDDINGS_CACHE_DIR: cacheDir, ...env });
  clients[name] = await GrpcEmbedder.connect({ target: servers[name].target, deadlineMs: 60_000 });
}
const grpc = clients.batching as GrpcEmbedder;

try {
  /** server: the embedder process whose CPU time counts with this one's. */
  const load = (embed: (t: string[]) => Promise<unknown>, batch: number, callers: number, server?: RunningEmbedder) =>
    closedLoop(embed, texts, { batch, clients: callers, seconds, servers: server ? [server.child.pid as number] : [] });
  // Warm up both paths (JIT, connections) before anything is measured.
  await load((t) => local.embed(t), 32, 8);
  await load((t) => grpc.embed(t), 32, 8);

  const grid = new Map<string, { local: Cell; remote: Cell }>();
  const batching = new Map<string, Cell>();
  for (let round = 1; round <= rounds; round++) {
    process.stderr.write(`round ${round} of ${rounds}\n`);
    for (const [batch, callers] of GRID) {
      const key = `${batch}x${callers}`;
      const cells = grid.get(key) ?? { local: new Cell(), remote: new Cell() };
      grid.set(key, cells);
      // Back to back in each round, so that both see the same machine load.
      cells.local.add(await load((t) => local.embed(t), batch, callers));
      cells.remote.add(await load((t) => grpc.embed(t), batch, callers, servers.batching));
    }
    for (const [name, client] of Object.entries(clients)) {
      const cell = batching.get(name) ?? new Cell();
      batching.set(name, cell);
      cell.add(await load((t) => client.embed(t), 1, 32, servers[name]));
    }
  }

  console.log(
    `${onnx ? `onnx on ${device}, ${onnx.describe}` : 'GloVe'} (${local.model}), ${seconds} s per setup, median of ${rounds} rounds; latency per call in ms; ` +
      'cpu: CPU time per text (over gRPC: client and embedder processes together)\n',
  );
  const head = `${'batch x callers'.padEnd(16)}${'in process'.padEnd(50)}${'gRPC on loopback'.padEnd(50)}`;
  console.log(`${head}gRPC / in process: texts/s, cpu`);
  for (const [key, { local, remote }] of grid) {
    const rate = `${Math.round((remote.rate / local.rate) * 100)}%`.padStart(5);
    const cpu = `${Math.round((remote.cpuPerText / local.cpuPerText) * 100)}%`.padStart(6);
    const cells = `${local.describe({ cpu: true }).padEnd(50)}${remote.describe({ cpu: true }).padEnd(50)}`;
    console.log(`${key.padEnd(16)}${cells}${rate} ${cpu}`);
  }
  console.log('\n32 callers, one text each, over gRPC');
  const off = batching.get('no batching') as Cell;
  for (const [name, cell] of batching) {
    const env = Object.entries(SERVERS[name as keyof typeof SERVERS])
      .map(([k, v]) => `${k}=${v}`)
      .join(' ');
    const label = `${name} (${env})`.padEnd(46);
    console.log(`${label}${cell.describe({ cpu: true }).padEnd(50)}x${(cell.rate / off.rate).toFixed(2)}`);
  }
} finally {
  for (const client of Object.values(clients)) await client.close();
  for (const server of Object.values(servers)) await server.stop();
  await local.close?.();
  await onnx?.remove();
}
