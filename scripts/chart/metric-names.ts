/**
 * Alerts and dashboard panels on metrics that nothing exports never fire and stay empty, silently.
 * This names the metrics a PromQL expression reads, and the ones Trove's code can export: every
 * string literal shaped like a metric name in apps/<app>/src and packages/<package>/src (prom-client metrics
 * are named by literals), prom-client's default process_* and nodejs_* series, and kube-state-metrics'
 * kube_* series (an alert that reads those says so in the chart README).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

// The repository root (this file is scripts/chart/metric-names.ts).
const ROOT = join(import.meta.dirname, '../..');

const EXTERNAL = /^(process_|nodejs_|kube_)/;
const KEYWORDS = new Set('by without on ignoring group_left group_right bool and or unless offset'.split(' '));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.test.ts'))
    .map((e) => join(e.parentPath, e.name))
    .filter((f) => !f.includes('/generated/') && !f.includes('/node_modules/'));
}

let exported: Set<string> | undefined;
/** Metric-shaped string literals of the apps' and packages' sources. */
export function exportedMetricNames(): Set<string> {
  if (exported) return exported;
  exported = new Set();
  for (const top of ['apps', 'packages']) {
    for (const entry of readdirSync(join(ROOT, top))) {
      let files: string[];
      try {
        files = sourceFiles(join(ROOT, top, entry, 'src'));
      } catch {
        continue;
      }
      for (const file of files) {
        for (const m of readFileSync(file, 'utf8').matchAll(/['"`]([a-z][a-z0-9]*(?:_[a-z0-9]+)+)['"`]/g)) {
          exported.add(m[1] as string);
        }
      }
    }
  }
  return exported;
}

/** The metric names a PromQL expression reads (label matchers, ranges and grouping lists removed). */
export function metricsOf(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ');
  const names = new Set<string>();
  for (const m of bare.matchAll(/([a-zA-Z_:][a-zA-Z0-9_:]*)\s*(\()?/g)) {
    const [, name, call] = m;
    if (call || KEYWORDS.has(name as string) || /^[0-9]/.test(name as string)) continue;
    // A number such as 1e-9 leaves `e` behind: not a metric.
    if (/^e$/i.test(name as string) && /[0-9.]$/.test(bare.slice(0, m.index))) continue;
    names.add(name as string);
  }
  return [...names];
}

/** Metrics an expression reads that nothing exports (a histogram's _bucket/_sum/_count count as it). */
export function unknownMetrics(expr: string): string[] {
  const known = exportedMetricNames();
  return metricsOf(expr).filter(
    (name) => !EXTERNAL.test(name) && !known.has(name) && !known.has(name.replace(/_(bucket|sum|count)$/, '')),
  );
}
