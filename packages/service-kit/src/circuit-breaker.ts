import { Gauge, type Registry } from 'prom-client';

export type CircuitState = 'closed' | 'open';

export interface CircuitBreakerOptions {
  /** What it guards, as metrics and /readyz name it (`redis`). */
  name: string;
  /** Failures in a row (timeouts, lost connections) that open the circuit. */
  failuresToOpen?: number;
  /** While open, how often `probe` asks whether the dependency answers again. */
  probeEveryMs?: number;
  /** One cheap call (PING) that resolves once the dependency answers again. */
  probe: () => Promise<unknown>;
  /** Told when the circuit opens (with the failure that opened it) and when it closes again. */
  onChange?: (state: CircuitState, err?: unknown) => void;
}

/**
 * Keeps requests from waiting on an optional dependency that has stopped answering. Closed, calls
 * go through and failures in a row are counted; at `failuresToOpen` it opens: callers are told at
 * once (`isOpen`) and carry on without the dependency, while a probe in the background asks every
 * `probeEveryMs` and closes the circuit on the first answer. A server that accepts connections but
 * never answers (frozen, overloaded) would otherwise cost every request the full command timeout.
 */
export class CircuitBreaker {
  readonly name: string;
  #state: CircuitState = 'closed';
  #failures = 0;
  #opened = 0;
  #probe: NodeJS.Timeout | undefined;
  #stopped = false;
  readonly #options: Required<Omit<CircuitBreakerOptions, 'onChange'>> & Pick<CircuitBreakerOptions, 'onChange'>;

  constructor(options: CircuitBreakerOptions) {
    this.name = options.name;
    this.#options = { failuresToOpen: 3, probeEveryMs: 1_000, ...options };
  }

  get state(): CircuitState {
    return this.#state;
  }

  get isOpen(): boolean {
    return this.#state === 'open';
  }

  /** Times the circuit has opened since start. */
  get openedCount(): number {
    return this.#opened;
  }

  succeeded(): void {
    this.#failures = 0;
  }

  failed(err: unknown): void {
    if (this.#state === 'open' || ++this.#failures < this.#options.failuresToOpen) return;
    this.#state = 'open';
    this.#opened++;
    this.#options.onChange?.('open', err);
    this.#scheduleProbe();
  }

  /** Stops probing (at shutdown). */
  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#probe);
  }

  #scheduleProbe(): void {
    if (this.#stopped) return;
    this.#probe = setTimeout(() => {
      this.#options.probe().then(
        () => {
          if (this.#stopped || this.#state === 'closed') return;
          this.#state = 'closed';
          this.#failures = 0;
          this.#options.onChange?.('closed');
        },
        () => this.#scheduleProbe(),
      );
    }, this.#options.probeEveryMs);
    this.#probe.unref();
  }
}

/** `circuit_breaker_open{dependency}` (1 while open) and `circuit_breaker_opened{dependency}` (times opened). */
export function registerCircuitMetrics(registry: Registry, breakers: CircuitBreaker[]): void {
  if (breakers.length === 0) return;
  new Gauge({
    name: 'circuit_breaker_open',
    help: 'Whether the circuit breaker around an optional dependency is open (1): requests go on without it',
    labelNames: ['dependency'],
    registers: [registry],
    collect() {
      for (const b of breakers) this.set({ dependency: b.name }, b.isOpen ? 1 : 0);
    },
  });
  new Gauge({
    name: 'circuit_breaker_opened',
    help: 'Times the circuit breaker around an optional dependency has opened since the process started',
    labelNames: ['dependency'],
    registers: [registry],
    collect() {
      for (const b of breakers) this.set({ dependency: b.name }, b.openedCount);
    },
  });
}
