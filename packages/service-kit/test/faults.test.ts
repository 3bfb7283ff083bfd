import { afterEach, describe, expect, it, vi } from 'vitest';
import { backoffDelay, CircuitBreaker, FailureLog } from '../src/index.ts';

afterEach(() => {
  vi.useRealTimers();
});

describe('backoffDelay', () => {
  it('doubles from the base up to the cap, keeping at least half of each step', () => {
    for (let attempt = 0; attempt < 40; attempt++) {
      const ceiling = Math.min(5_000, 200 * 2 ** attempt);
      const delay = backoffDelay(attempt);
      expect(delay).toBeGreaterThanOrEqual(ceiling / 2);
      expect(delay).toBeLessThanOrEqual(ceiling);
    }
  });
});

describe('FailureLog', () => {
  it('logs the first failure, then at most one summary a minute, then the recovery', () => {
    vi.useFakeTimers();
    const lines: string[] = [];
    const log = {
      warn: (_: object, msg: string) => lines.push(`warn ${msg}`),
      info: (_: object, msg: string) => lines.push(`info ${msg}`),
    };
    const failures = new FailureLog('Redis at redis://cache:6379');
    for (let i = 0; i < 100; i++) {
      failures.failed(log, new Error('Command timed out'));
      vi.advanceTimersByTime(1_000);
    }
    failures.recovered(log);
    failures.recovered(log);
    expect(lines).toEqual([
      'warn Redis at redis://cache:6379 failing: Command timed out',
      'warn Redis at redis://cache:6379 still failing: 60 more failures in the last 60 s (61 since it began 60 s ago): Command timed out',
      'info Redis at redis://cache:6379 works again after 100.0 s (100 failures)',
    ]);
  });
});

describe('CircuitBreaker', () => {
  it('opens after failures in a row, probes in the background and closes on the first answer', async () => {
    vi.useFakeTimers();
    let answers = false;
    const changes: string[] = [];
    const breaker = new CircuitBreaker({
      name: 'redis',
      probeEveryMs: 1_000,
      probe: async () => {
        if (!answers) throw new Error('no answer');
      },
      onChange: (state) => changes.push(state),
    });
    breaker.failed(new Error('timeout'));
    breaker.succeeded();
    breaker.failed(new Error('timeout'));
    breaker.failed(new Error('timeout'));
    expect(breaker.state).toBe('closed');
    breaker.failed(new Error('timeout'));
    expect(breaker.state).toBe('open');
    await vi.advanceTimersByTimeAsync(3_500);
    expect(breaker.state).toBe('open');
    answers = true;
    await vi.advanceTimersByTimeAsync(1_000);
    expect(breaker.state).toBe('closed');
    expect(changes).toEqual(['open', 'closed']);
    expect(breaker.openedCount).toBe(1);
    breaker.stop();
  });
});
