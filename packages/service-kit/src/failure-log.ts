/** The logger methods a failure log writes with (pino's, structurally). */
export interface FailureLogger {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

const SUMMARY_EVERY_MS = 60_000;

/**
 * Logs a failing dependency without flooding: the first failure in full, then at most one line a
 * minute with how many failures there were meanwhile, and one line when it works again. A Redis
 * outage at 20 events/s used to write a warning with a stack for every event.
 */
export class FailureLog {
  #since: number | undefined;
  #failures = 0;
  #unreported = 0;
  #lastLine = 0;

  constructor(
    /** What fails, as the lines name it: `Redis at redis://cache:6379 (live updates)`. */
    readonly what: string,
    private readonly everyMs = SUMMARY_EVERY_MS,
  ) {}

  get failing(): boolean {
    return this.#since !== undefined;
  }

  failed(log: FailureLogger, err: unknown, fields: object = {}): void {
    const now = Date.now();
    const reason = err instanceof Error ? err.message : String(err);
    this.#failures++;
    if (this.#since === undefined) {
      this.#since = now;
      this.#lastLine = now;
      this.#unreported = 0;
      log.warn({ err, ...fields }, `${this.what} failing: ${reason}`);
      return;
    }
    this.#unreported++;
    if (now - this.#lastLine < this.everyMs) return;
    log.warn(
      { ...fields, failures: this.#failures, failingForMs: now - this.#since, reason },
      `${this.what} still failing: ${this.#unreported} more failures in the last ${Math.round((now - this.#lastLine) / 1000)} s (${this.#failures} since it began ${Math.round((now - this.#since) / 1000)} s ago): ${reason}`,
    );
    this.#lastLine = now;
    this.#unreported = 0;
  }

  recovered(log: FailureLogger, fields: object = {}): void {
    if (this.#since === undefined) return;
    const failingForMs = Date.now() - this.#since;
    log.info(
      { ...fields, failures: this.#failures, failingForMs },
      `${this.what} works again after ${(failingForMs / 1000).toFixed(1)} s (${this.#failures} failures)`,
    );
    this.#since = undefined;
    this.#failures = 0;
  }
}
