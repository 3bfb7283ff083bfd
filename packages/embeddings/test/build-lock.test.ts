import { access, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildOnce } from '../src/glove/build-lock.ts';

const exists = (file: string) => () =>
  access(file).then(
    () => true,
    () => false,
  );

describe('buildOnce (the GloVe cache is built by one process at a time)', () => {
  it('builds once while others wait and say so', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'build-once-'));
    const target = join(dir, 'cache.bin');
    let builds = 0;
    const messages: string[] = [];
    const build = async () => {
      builds++;
      await new Promise((r) => setTimeout(r, 600));
      await writeFile(target, 'built');
    };
    await Promise.all(
      Array.from({ length: 3 }, () => buildOnce(`${target}.lock`, exists(target), build, (m) => messages.push(m))),
    );
    expect(builds).toBe(1);
    expect(messages.length).toBeGreaterThanOrEqual(2);
    expect(messages[0]).toBe(`waiting for another process to finish building ${target}`);
    await expect(access(`${target}.lock`)).rejects.toThrow();
  });

  it('takes over a lock whose process is gone', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'build-once-'));
    const target = join(dir, 'cache.bin');
    await writeFile(`${target}.lock`, '999999999');
    let builds = 0;
    await buildOnce(
      `${target}.lock`,
      exists(target),
      async () => {
        builds++;
        await writeFile(target, 'built');
      },
      () => {},
    );
    expect(builds).toBe(1);
  });
});
