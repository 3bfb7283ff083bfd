import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { type ClientFor, createClient } from '@trove/grpc-kit';
import { TracerService } from '@trove/proto/vectorize/v1';

/** One name or address and port from VECTORIZER_WORKER_URL. */
export interface TargetPart {
  host: string;
  port: number;
}

/** `host:port`, `dns:///host:port`, `[v6]:port`, or several of them separated by commas. */
export const TARGET_PATTERN =
  /^(?:dns:\/\/\/)?(?:[\w.-]+|\[[\da-fA-F:.]+\]):\d{1,5}(?:,(?:dns:\/\/\/)?(?:[\w.-]+|\[[\da-fA-F:.]+\]):\d{1,5})*$/;

export function parseTarget(target: string): TargetPart[] {
  if (!TARGET_PATTERN.test(target)) {
    throw new Error(
      `worker target ${JSON.stringify(target)} is not host:port, dns:///host:port or a comma-separated list of them`,
    );
  }
  return target.split(',').map((part) => {
    const bare = part.replace(/^dns:\/\/\//, '');
    const colon = bare.lastIndexOf(':');
    return { host: bare.slice(0, colon).replace(/^\[(.*)\]$/, '$1'), port: Number(bare.slice(colon + 1)) };
  });
}

/** What a worker said about itself at the last poll. */
export interface WorkerCapacity {
  threads: number;
  queueLength: number;
  inFlight: number;
  queued: number;
  averageJobSeconds: number;
}

export interface Endpoint {
  /** ip:port (IPv6 in brackets). */
  readonly address: string;
  readonly client: ClientFor<typeof TracerService>;
  /** undefined until the first poll answers or fails. */
  reachable: boolean | undefined;
  capacity: WorkerCapacity | undefined;
  /** Why the last poll or call failed, for logs. */
  lastError: string | undefined;
}

export interface WorkerSetOptions {
  target: string;
  /** Largest request a client sends (the biggest image's pixels, plus room for the rest). */
  maxSendBytes: number;
  /** Deadline of each capacity poll. */
  pollTimeoutMs: number;
}

const key = (ip: string, port: number) => (isIP(ip) === 6 ? `[${ip}]:${port}` : `${ip}:${port}`);

/**
 * The vectorizer-worker servers a target names: every address each name resolves to (a headless
 * Service's name resolves to one address per ready pod), one gRPC channel each. `refresh` resolves
 * the names again and asks each server its capacity; callers pick servers round robin.
 */
export class WorkerSet {
  private readonly parts: TargetPart[];
  private readonly endpoints = new Map<string, Endpoint>();
  /** What each part of the target resolved to last time. */
  private readonly lastResolved: string[][] = [];
  private turn = 0;

  constructor(private readonly options: WorkerSetOptions) {
    this.parts = parseTarget(options.target);
  }

  get all(): Endpoint[] {
    return [...this.endpoints.values()];
  }

  /**
   * The next server in turn, skipping those in `exclude`; servers that failed their last poll or
   * call are chosen only when no other is left.
   */
  pick(exclude: ReadonlySet<string> = new Set()): Endpoint | undefined {
    const candidates = this.all.filter((endpoint) => !exclude.has(endpoint.address));
    const healthy = candidates.filter((endpoint) => endpoint.reachable !== false);
    const pool = healthy.length > 0 ? healthy : candidates;
    if (pool.length === 0) return undefined;
    this.turn = (this.turn + 1) % 1_000_000_000;
    return pool[this.turn % pool.length];
  }

  /** Resolves the names again (keeping what resolved before when a lookup fails) and polls every server. */
  async refresh(): Promise<void> {
    const resolved = await Promise.all(
      this.parts.map(async ({ host, port }, index) => {
        if (isIP(host)) return [key(host, port)];
        try {
          const addresses = await lookup(host, { all: true });
          this.lastResolved[index] = addresses.map((address) => key(address.address, port));
        } catch {
          // A name that does not resolve now (no ready pod behind a headless Service) keeps its old addresses.
        }
        return this.lastResolved[index] ?? [];
      }),
    );
    const wanted = new Set(resolved.flat());
    for (const [address, endpoint] of this.endpoints) {
      if (!wanted.has(address)) {
        // grpc-js lets calls already under way on a closed channel finish.
        endpoint.client.close();
        this.endpoints.delete(address);
      }
    }
    for (const address of wanted) if (!this.endpoints.has(address)) this.endpoints.set(address, this.open(address));
    await Promise.all(this.all.map((endpoint) => this.poll(endpoint)));
  }

  markFailed(endpoint: Endpoint, reason: string): void {
    endpoint.reachable = false;
    endpoint.lastError = reason;
  }

  close(): void {
    for (const endpoint of this.endpoints.values()) endpoint.client.close();
    this.endpoints.clear();
  }

  private open(address: string): Endpoint {
    const client = createClient(TracerService, address, {
      loadBalancing: 'pick_first',
      channelOptions: {
        'grpc.max_send_message_length': this.options.maxSendBytes,
        // Answers come from our own workers; a large photo's SVG and PDF together can pass any fixed guess.
        'grpc.max_receive_message_length': -1,
        // A worker whose node vanished without closing the connection is noticed within ~25 s, not at the deadline.
        'grpc.keepalive_time_ms': 15_000,
        'grpc.keepalive_timeout_ms': 10_000,
      },
    });
    return { address, client, reachable: undefined, capacity: undefined, lastError: undefined };
  }

  private async poll(endpoint: Endpoint): Promise<void> {
    try {
      const reply = await endpoint.client.getCapacity({}, { deadlineMs: this.options.pollTimeoutMs });
      const { threads, queueLength, inFlight, queued, averageJobSeconds } = reply;
      endpoint.capacity = { threads, queueLength, inFlight, queued, averageJobSeconds };
      endpoint.reachable = true;
      endpoint.lastError = undefined;
    } catch (err) {
      const e = err as { details?: string; message?: string };
      this.markFailed(endpoint, e.details ?? e.message ?? String(err));
    }
  }
}
