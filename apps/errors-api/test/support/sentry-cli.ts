import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { Requirement } from '../../../../tests/support/requirements.ts';

/** The real sentry-cli, from the npm package that carries the Linux binary. */
export const SENTRY_CLI = fileURLToPath(
  new URL('../../../../node_modules/@sentry/cli-linux-x64/bin/sentry-cli', import.meta.url),
);

export const sentryCliRequirement: Requirement = {
  name: 'sentry-cli',
  absent: () => (existsSync(SENTRY_CLI) ? undefined : `no binary at ${SENTRY_CLI}`),
  install: 'npm install (the @sentry/cli-linux-x64 package, on Linux x64)',
};

/** Runs sentry-cli against a server with an auth token; resolves with its output, rejects with it. */
export async function sentryCli(
  args: string[],
  server: string,
  token: string,
  cwd: string,
  { org = 'trove', project = 'default' }: { org?: string; project?: string } = {},
): Promise<string> {
  const { stdout, stderr } = await promisify(execFile)(SENTRY_CLI, args, {
    cwd,
    env: {
      PATH: process.env.PATH,
      HOME: cwd,
      SENTRY_URL: server,
      SENTRY_AUTH_TOKEN: token,
      SENTRY_ORG: org,
      SENTRY_PROJECT: project,
      SENTRY_LOG_LEVEL: 'warn',
      SENTRY_DISABLE_UPDATE_CHECK: '1',
    },
  });
  return stdout + stderr;
}
