/** A reader of the Prometheus text exposition format (0.0.4): samples with their labels. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+-?\d+)?$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"\s*,?/g;

export function parsePrometheusText(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const [i, raw] of text.split('\n').entries()) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const match = SAMPLE.exec(line);
    if (!match) throw new Error(`line ${i + 1} is not a Prometheus sample: ${line.slice(0, 120)}`);
    const labels: Record<string, string> = {};
    for (const [, key, value] of (match[2] ?? '').matchAll(LABEL)) {
      labels[key as string] = (value as string).replace(/\\n/g, '\n').replace(/\\"/g, '"').replace(/\\\\/g, '\\');
    }
    const value = match[3] === '+Inf' ? Infinity : match[3] === '-Inf' ? -Infinity : Number(match[3]);
    if (Number.isNaN(value) && match[3] !== 'NaN') throw new Error(`line ${i + 1}: bad value ${match[3]}`);
    samples.push({ name: match[1] as string, labels, value });
  }
  return samples;
}
