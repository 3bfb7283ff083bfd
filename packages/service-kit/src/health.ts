import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { FailureLog } from './failure-log.ts';

export type ReadinessCheck = () => Promise<unknown>;

/** Probe and scrape paths: polled every few seconds, so neither logged per request nor traced. */
export const PROBE_PATHS = /^\/(livez|readyz|metrics)(\?|$)/;

const CHECK_TIMEOUT_MS = 2_000;

async function withTimeout(check: ReadinessCheck, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  try {
    await Promise.race([check(), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The dependencies an app needs before it can serve (database, Redis, ...). Readiness fails while
 * any check fails and from the moment the process starts shutting down, so a load balancer stops
 * sending new work before the listener closes.
 */
export class Readiness {
  private readonly checks = new Map<string, { check: ReadinessCheck; required: boolean; log: FailureLog }>();
  private readonly detailSources = new Map<string, () => Record<string, unknown>>();
  private readonly liveness = new Map<string, { check: () => void; log: FailureLog }>();
  private draining = false;

  /**
   * A condition only a restart cures (a database that stopped answering for good): while it
   * throws, /livez answers 503 so that the orchestrator restarts the process. Must not wait.
   */
  addLiveness(name: string, check: () => void): void {
    this.liveness.set(name, { check, log: new FailureLog(`liveness check ${name}`) });
  }

  /** Liveness: the name of each failing condition (empty while the process can serve). */
  live(log: FastifyBaseLogger): Record<string, string> {
    const failed: Record<string, string> = {};
    for (const [name, { check, log: failures }] of this.liveness) {
      try {
        check();
        failures.recovered(log, { check: name });
      } catch (err) {
        failures.failed(log, err, { check: name });
        failed[name] = 'failed';
      }
    }
    return failed;
  }

  /**
   * A check that is not required is reported as `degraded` when it fails, and the app stays ready.
   * `details` adds figures under `details.<name>` of the report (counts, never hosts or secrets:
   * /readyz is unauthenticated).
   */
  add(
    name: string,
    check: ReadinessCheck,
    { required = true, details }: { required?: boolean; details?: () => Record<string, unknown> } = {},
  ): void {
    this.checks.set(name, { check, required, log: new FailureLog(`readiness check ${name}`) });
    if (details) this.addDetails(name, details);
  }

  /** Figures under `details.<name>` of the report, with or without a check of that name. */
  addDetails(name: string, details: () => Record<string, unknown>): void {
    const before = this.detailSources.get(name);
    this.detailSources.set(name, before ? () => ({ ...before(), ...details() }) : details);
  }

  startDraining(): void {
    this.draining = true;
  }

  async report(log: FastifyBaseLogger): Promise<{
    ready: boolean;
    checks: Record<string, string>;
    details?: Record<string, Record<string, unknown>>;
  }> {
    const entries = await Promise.all(
      [...this.checks].map(async ([name, { check, required, log: failures }]) => {
        try {
          await withTimeout(check, CHECK_TIMEOUT_MS);
          failures.recovered(log, { check: name });
          return [name, 'ok'] as const;
        } catch (err) {
          // The reason goes to the log only: readiness is unauthenticated and errors can name hosts.
          // Probed every few seconds: logged when it starts failing, then once a minute, then on recovery.
          failures.failed(log, err, { check: name });
          return [name, required ? 'failed' : 'degraded'] as const;
        }
      }),
    );
    const checks: Record<string, string> = Object.fromEntries(entries);
    if (this.draining) checks.shutdown = 'draining';
    const ready = !this.draining && entries.every(([, state]) => state !== 'failed');
    if (this.detailSources.size === 0) return { ready, checks };
    const details = Object.fromEntries([...this.detailSources].map(([name, read]) => [name, read()]));
    return { ready, checks, details };
  }
}

/** `/livez`: the process is up and nothing it needs is stuck for good. `/readyz`: it can serve, with the state of each dependency. */
export function registerHealthRoutes(app: FastifyInstance, readiness: Readiness): void {
  app.get('/livez', async (request, reply) => {
    const failed = readiness.live(request.log);
    if (Object.keys(failed).length === 0) return { status: 'ok' };
    return reply.code(503).send({ status: 'failed', checks: failed });
  });
  app.get('/readyz', async (request, reply) => {
    const { ready, checks, details } = await readiness.report(request.log);
    return reply
      .code(ready ? 200 : 503)
      .send({ status: ready ? 'ready' : 'not ready', checks, ...(details && { details }) });
  });
}
