/**
 * Tests that need something outside Node (a system tool or a server) ask for it here:
 *
 *     describe.skipIf(missing('postgres'))('on Postgres', () => { ... });
 *     it.skipIf(missing('gs'))('renders the EPS with Ghostscript', ...);
 *
 * `missing` answers true when something is absent, prints one line naming it and how to get it,
 * and records it for the summary at the end of the run (tests/support/skip-summary.ts). With
 * TROVE_REQUIRE_ALL=1 (CI sets it) a missing requirement throws instead, so the file fails.
 * Something not in REQUIREMENTS: `missing({ name, absent, install })`.
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync } from 'node:fs';
import { relative } from 'node:path';
import { inject } from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    /** File the skip reasons of this run are appended to (one JSON object a line). */
    troveSkipLog: string;
  }
}

export interface Requirement {
  name: string;
  /** Why it is missing, or undefined when it is there. */
  absent: () => string | undefined;
  /** How to get it, for the skip line. */
  install: string;
}

const ROOT = new URL('../../', import.meta.url).pathname;

function tool(command: string, versionArgs: string[], install: string): Requirement {
  return {
    name: command,
    absent: () =>
      spawnSync(command, versionArgs, { stdio: 'ignore' }).error ? `${command} is not on the PATH` : undefined,
    install,
  };
}

function server(name: string, variable: string, example: string, install: string): Requirement {
  return {
    name,
    absent: () => (process.env[variable] ? undefined : `${variable} is not set`),
    install: `${install}, then set ${variable}=${example}`,
  };
}

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const REQUIREMENTS = {
  postgres: server(
    'Postgres',
    'TEST_DATABASE_URL',
    'postgres://postgres@127.0.0.1:5432/postgres',
    'apt-get install postgresql',
  ),
  redis: server('Redis', 'REDIS_URL', 'redis://127.0.0.1:6379', 'apt-get install redis-server'),
  'redis-server': tool('redis-server', ['--version'], 'apt-get install redis-server'),
  promtool: tool('promtool', ['--version'], 'apt-get install prometheus'),
  gs: tool('gs', ['--version'], 'apt-get install ghostscript'),
  docker: tool('docker', ['version'], 'apt-get install docker.io'),
  chromium: {
    name: 'chromium',
    absent: () => (existsSync(CHROMIUM) ? undefined : `no chromium at ${CHROMIUM}`),
    install: 'apt-get install chromium, or set CHROMIUM_PATH',
  },
} satisfies Record<string, Requirement>;

export type RequirementName = keyof typeof REQUIREMENTS;

export const requireAll = process.env.TROVE_REQUIRE_ALL === '1';

const answers = new Map<string, string | undefined>();
const printed = new Set<string>();

/** The test file that called `missing`, for the summary. */
function callerFile(): string {
  const frames = (new Error().stack ?? '').split('\n').slice(1);
  for (const frame of frames) {
    const match = frame.match(/(?:file:\/\/)?(\/[^():]+\.ts)/);
    if (match?.[1] && !match[1].endsWith('/requirements.ts')) return relative(ROOT, match[1]);
  }
  return 'unknown file';
}

function skipLog(): string | undefined {
  try {
    return inject('troveSkipLog');
  } catch {
    return undefined; // outside a vitest run with the global setup
  }
}

/** True (skip) when any requirement is absent; prints and records why. Throws under TROVE_REQUIRE_ALL=1. */
export function missing(...needs: (RequirementName | Requirement)[]): boolean {
  const file = callerFile();
  let anyAbsent = false;
  for (const need of needs) {
    const requirement = typeof need === 'string' ? REQUIREMENTS[need] : need;
    if (!answers.has(requirement.name)) answers.set(requirement.name, requirement.absent());
    const absent = answers.get(requirement.name);
    if (absent === undefined) continue;
    anyAbsent = true;
    const reason = `${requirement.name} missing (${absent}): ${requirement.install}`;
    if (requireAll) throw new Error(`${file}: ${reason}; TROVE_REQUIRE_ALL=1 makes this a failure`);
    if (printed.has(`${file}\n${reason}`)) continue;
    printed.add(`${file}\n${reason}`);
    console.warn(`skipped in ${file}: ${reason}`);
    const log = skipLog();
    if (log) appendFileSync(log, `${JSON.stringify({ file, reason })}\n`);
  }
  return anyAbsent;
}
