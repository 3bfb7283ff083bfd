/** What the embedder benchmarks share: the texts, the closed-loop load, and how figures print. */
import { readFileSync } from 'node:fs';
import { median, percentile } from '@trove/stats';

/**
 * Sentences of 6 to 24 words drawn from `vocabulary`, by default the 10,000 most frequent GloVe
 * words (words.txt). The same seed gives the same sentences.
 */
export function sentences(count: number, seed = 7, vocabulary?: string[]): string[] {
  const words =
    vocabulary ??
    readFileSync(new URL('words.txt', import.meta.url), 'utf8')
      .split('\n')
      .filter(Boolean);
  let state = seed;
  const next = () => {
    state = (Math.imul(state, 1_103_515_245) + 12_345) & 0x7fffffff;
    return state;
  };
  return Array.from({ length: count }, () =>
    Array.from({ length: 6 + (next() % 19) }, () => words[next() % words.length]).join(' '),
  );
}

export interface Measured {
  textsPerSecond: number;
  /** Latency of one call, ms. */
  latencies: number[];
  /** CPU time per text in µs, this process and the `servers` given to closedLoop together. */
  cpuPerText: number;
}

/** CPU time a process has used so far, µs, from /proc (Linux): user + system clock ticks. */
export function processCpu(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

/**
 * Closed loop: `clients` callers each send a batch of `batch` texts, wait for the answer, and send
 * the next, for `seconds`. Texts rotate through `texts` so that no two calls in a row are equal.
 */
export async function closedLoop(
  embed: (texts: string[]) => Promise<unknown>,
  texts: string[],
  options: { batch: number; clients: number; seconds: number; servers?: number[] },
): Promise<Measured> {
  const latencies: number[] = [];
  let done = 0;
  let cursor = 0;
  const cpu = () => {
    const own = process.cpuUsage();
    return own.user + own.system + (options.servers ?? []).reduce((sum, pid) => sum + processCpu(pid), 0);
  };
  const cpuBefore = cpu();
  const started = performance.now();
  const until = started + options.seconds * 1000;
  await Promise.all(
    Array.from({ length: options.clients }, async () => {
      while (performance.now() < until) {
        const at = cursor;
        cursor = (cursor + options.batch) % (texts.length - options.batch);
        const sent = performance.now();
        await embed(texts.slice(at, at + options.batch));
        latencies.push(performance.now() - sent);
        done += options.batch;
      }
    }),
  );
  return {
    textsPerSecond: done / ((performance.now() - started) / 1000),
    latencies,
    cpuPerText: (cpu() - cpuBefore) / done,
  };
}

/** Figures of one setup over several rounds: the median rate, latency percentiles of every call. */
export class Cell {
  readonly rates: number[] = [];
  readonly latencies: number[] = [];
  readonly cpu: number[] = [];
  add(m: Measured): void {
    this.rates.push(m.textsPerSecond);
    this.latencies.push(...m.latencies);
    this.cpu.push(m.cpuPerText);
  }
  get rate(): number {
    return median(this.rates);
  }
  /** CPU µs per text, median of the rounds. */
  get cpuPerText(): number {
    return median(this.cpu);
  }
  describe(options: { cpu?: boolean } = {}): string {
    const ms = (x: number) => (x < 10 ? x.toFixed(2) : x.toFixed(1));
    const cpu = options.cpu ? `  cpu ${Math.round(this.cpuPerText).toString().padStart(4)} µs` : '';
    return `${Math.round(this.rate).toLocaleString('en-US').padStart(7)} /s  p50 ${ms(percentile(this.latencies, 50)).padStart(6)}  p99 ${ms(percentile(this.latencies, 99)).padStart(6)}${cpu}`;
  }
}

/** The value after `--name` on the command line, if given. */
export function option(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

export function flag(name: string, fallback: number): number {
  const given = option(name);
  const value = given === undefined ? fallback : Number(given);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} takes a positive number`);
  return value;
}
