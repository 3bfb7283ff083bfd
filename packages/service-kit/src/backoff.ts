/** How long to wait between reconnect attempts of a long-lived connection. */
export interface BackoffOptions {
  /** Delay before the first retry, before jitter. */
  baseMs?: number;
  /** Largest delay, before jitter: bounds how long a recovered dependency waits to be noticed. */
  maxMs?: number;
}

/**
 * Delay before retry `attempt` (0 for the first): doubling from `baseMs` up to `maxMs`, of which a
 * random half is taken away ("equal jitter"). Without jitter every replica cut off by the same
 * outage reconnects at the same instants, and a recovering server meets them all at once.
 */
export function backoffDelay(attempt: number, { baseMs = 200, maxMs = 5_000 }: BackoffOptions = {}): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** Math.min(attempt, 30));
  return Math.round(ceiling / 2 + (Math.random() * ceiling) / 2);
}

/** A sleep that `wake()` ends early (a stop must not wait out a backoff). */
export function wakeableSleep(): { sleep(ms: number): Promise<void>; wake(): void } {
  let timer: NodeJS.Timeout | undefined;
  let resolveSleep: (() => void) | undefined;
  return {
    sleep(ms) {
      return new Promise<void>((resolve) => {
        resolveSleep = resolve;
        timer = setTimeout(resolve, ms);
      });
    },
    wake() {
      clearTimeout(timer);
      resolveSleep?.();
    },
  };
}
