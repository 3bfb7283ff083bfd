/**
 * Vitest global setup: gives the test files a file to record skips in (tests/support/requirements.ts)
 * and prints, at the end of the run, what was skipped and why.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

export default function setup(project: TestProject): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'trove-skips-'));
  const log = join(dir, 'skips.jsonl');
  project.provide('troveSkipLog', log);
  return () => {
    let text = '';
    try {
      text = readFileSync(log, 'utf8');
    } catch {
      // nothing was skipped
    }
    rmSync(dir, { recursive: true, force: true });
    const filesByReason = new Map<string, Set<string>>();
    for (const line of text.split('\n').filter(Boolean)) {
      const { file, reason } = JSON.parse(line) as { file: string; reason: string };
      filesByReason.set(reason, (filesByReason.get(reason) ?? new Set()).add(file));
    }
    if (filesByReason.size === 0) return;
    const lines = [...filesByReason].map(([reason, files]) => `  ${reason}\n    in ${[...files].sort().join(', ')}`);
    console.log(
      `\nSkipped for want of a tool or server (TROVE_REQUIRE_ALL=1 makes these failures):\n${lines.join('\n')}\n`,
    );
  };
}
