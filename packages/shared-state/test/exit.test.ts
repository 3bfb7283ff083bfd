import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { missing } from '../../../tests/support/requirements.ts';
import { deleteKeysWithPrefix, redisUrl, runPrefix } from './support.ts';

const fixture = fileURLToPath(new URL('./fixtures/open-use-close.ts', import.meta.url));
// Far above a normal run (~1 s), far below "never exits".
const EXIT_DEADLINE_MS = 15_000;

/** Runs the fixture; resolves with its exit code, or 'hung' if it outlives the deadline. */
function runFixture(env: Record<string, string>): Promise<{ code: number | 'hung'; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', fixture], {
      env: { ...process.env, REDIS_URL: '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve({ code: 'hung', output });
    }, EXIT_DEADLINE_MS);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, output });
    });
  });
}

describe('close() leaves nothing that keeps the process alive', () => {
  const prefix = runPrefix();
  afterAll(async () => {
    if (redisUrl) await deleteKeysWithPrefix(redisUrl, prefix);
  });

  it('memory backend', async () => {
    const { code, output } = await runFixture({ KEY_PREFIX: prefix });
    expect(output).toContain('closed');
    expect(code).toBe(0);
  });

  it.skipIf(missing('redis'))('redis backend', async () => {
    const { code, output } = await runFixture({ REDIS_URL: redisUrl ?? '', KEY_PREFIX: prefix });
    expect(output).toContain('received hello');
    expect(output).toContain('closed');
    expect(code).toBe(0);
  });
});
