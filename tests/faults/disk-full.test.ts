/**
 * The disk under embedded errors-api fills up (a small tmpfs of the test's own, then a file that
 * takes the rest): writes are refused 507 naming the data directory, promptly, reads and probes
 * go on, and once the file is deleted events are stored again, with no restart.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, rmdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningApp, startApp } from '../support/processes.ts';
import { missing, type Requirement } from '../support/requirements.ts';
import { type IngestTarget, ingestTarget, type Sent } from './support/errors-api.ts';

const MOUNT: Requirement = {
  name: 'tmpfs mount',
  absent: () => {
    // Mounting needs root (or CAP_SYS_ADMIN); containers and CI runners often lack it.
    const probe = spawnSync('sh', [
      '-c',
      'd=$(mktemp -d) && mount -t tmpfs -o size=1m tmpfs "$d" && umount "$d"; s=$?; rmdir "$d"; exit $s',
    ]);
    return probe.status === 0 ? undefined : `mount -t tmpfs failed: ${String(probe.stderr).trim() || 'not permitted'}`;
  },
  install: 'run the tests as root, or in a container with CAP_SYS_ADMIN',
};

describe.skipIf(missing(MOUNT))('embedded errors-api when its disk fills up', () => {
  let mountPoint: string;
  let app: RunningApp;
  let target: IngestTarget;
  const dataDir = () => join(mountPoint, 'errors-api');
  const filler = () => join(mountPoint, 'filler');

  beforeAll(async () => {
    mountPoint = await mkdtemp(join(tmpdir(), 'trove-disk-full-'));
    // The database takes ~40 MB at start, WAL included; 96 MB leaves room to start and to fill.
    expect(spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=96m', 'tmpfs', mountPoint]).status).toBe(0);
    app = await startApp('errors-api', { DATA_DIR: dataDir(), LOG_LEVEL: 'info' });
    target = await ingestTarget(app.url);
  });
  afterAll(async () => {
    await app?.stop();
    if (mountPoint) {
      spawnSync('umount', [mountPoint]);
      await rmdir(mountPoint).catch(() => rm(mountPoint, { recursive: true, force: true }));
    }
  });

  it('refuses writes with 507 naming the data directory, never hangs, and recovers once space is freed', async () => {
    const answers: Sent[] = [];
    const send = async (label: string) => {
      const sent = await target.send(`${label} ${'x'.repeat(4_000)}`);
      answers.push(sent);
      return sent;
    };
    for (let i = 0; i < 5; i++) expect((await send('before')).status).toBe(200);

    spawnSync('dd', ['if=/dev/zero', `of=${filler()}`, 'bs=1M'], { stdio: 'ignore' });
    let full: Sent | undefined;
    for (let i = 0; i < 400 && !full; i++) {
      const sent = await send('while full');
      if (sent.status !== 200) full = sent;
    }
    expect(full, 'no write failed on a full disk').toBeDefined();
    expect(full?.status, full?.body).toBe(507);
    expect(JSON.parse(full?.body ?? '{}').error).toContain(dataDir());
    expect(Number(full?.headers.get('retry-after'))).toBeGreaterThan(0);
    // Still full: every answer quick, and either a stored event or a 507.
    for (let i = 0; i < 10; i++) await send('while full');
    // The process is not stuck: probes answer, reads work.
    expect((await fetch(`${app.url}/livez`)).status).toBe(200);
    expect((await fetch(`${app.url}/readyz`)).status).toBe(200);

    await rm(filler());
    const freedAt = Date.now();
    let back: Sent;
    do {
      back = await send('after');
      if (Date.now() - freedAt > 15_000)
        throw new Error(`still ${back.status} ${back.body} 15 s after space was freed`);
    } while (back.status !== 200);
    const recoveredMs = Date.now() - freedAt;
    for (let i = 0; i < 5; i++) expect((await send('after')).status).toBe(200);

    for (const a of answers) {
      expect([200, 507], a.body).toContain(a.status);
      expect(a.ms).toBeLessThan(10_000);
    }
    const acknowledged = answers.filter((a) => a.status === 200);
    const stored =
      (await target.stored('before')) + (await target.stored('while full')) + (await target.stored('after'));
    expect(stored).toBe(acknowledged.length);
    console.log(
      `disk full: ${answers.filter((a) => a.status === 507).length} writes refused 507, slowest answer ${Math.round(Math.max(...answers.map((a) => a.ms)))} ms, stored again ${recoveredMs} ms after space was freed`,
    );
  });
});
