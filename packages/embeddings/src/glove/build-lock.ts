import { open, readFile, rm, stat } from 'node:fs/promises';

/** A lock older than this is taken over: its builder died without removing it. */
const STALE_MS = 10 * 60_000;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function staleLock(lock: string): Promise<boolean> {
  try {
    const [text, info] = await Promise.all([readFile(lock, 'utf8'), stat(lock)]);
    const pid = Number(text.trim());
    return !Number.isInteger(pid) || !alive(pid) || Date.now() - info.mtimeMs > STALE_MS;
  } catch {
    return true; // gone already
  }
}

/**
 * Runs `build` in one process at a time across the machine (services and test workers starting
 * together): the others wait, saying so, until `done()` is true, which the builder's result makes
 * it. A lock left by a process that died is taken over.
 */
export async function buildOnce(
  lock: string,
  done: () => Promise<boolean>,
  build: () => Promise<void>,
  log: (message: string) => void,
): Promise<void> {
  let waitingSince: number | undefined;
  for (;;) {
    if (await done()) return;
    let handle: Awaited<ReturnType<typeof open>> | undefined;
    try {
      handle = await open(lock, 'wx');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    if (handle) {
      try {
        await handle.writeFile(String(process.pid));
        await handle.close();
        if (!(await done())) await build();
        return;
      } finally {
        await rm(lock, { force: true });
      }
    }
    if (await staleLock(lock)) {
      await rm(lock, { force: true });
      continue;
    }
    const now = Date.now();
    if (waitingSince === undefined || now - waitingSince > 10_000) {
      log(`waiting for another process to finish building ${lock.replace(/\.lock$/, '')}`);
      waitingSince = now;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}
