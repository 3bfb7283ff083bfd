import type { DescMessage, MessageInitShape, MessageShape } from '@bufbuild/protobuf';
import * as grpc from '@grpc/grpc-js';
import { deadlineAfter, outgoingMetadata } from './context.ts';
import {
  type Codecs,
  deserializer,
  type GenService,
  type GenServiceMethods,
  methodPath,
  serializer,
  unaryMethods,
} from './definition.ts';

export interface RetryPolicy {
  /** Attempts in all, the first included. */
  attempts: number;
  initialBackoffMs: number;
  maxBackoffMs: number;
  /** Codes worth another attempt; UNAVAILABLE (the server is down, starting or draining) by default. */
  codes?: grpc.status[];
}

export interface ClientOptions {
  /** Deadline of each call unless the call names its own; undefined sets none. */
  deadlineMs?: number;
  retry?: RetryPolicy;
  /** How calls are spread over the addresses a `dns:///` target resolves to. */
  loadBalancing?: 'round_robin' | 'pick_first';
  channelOptions?: grpc.ChannelOptions;
  /** Hand-written encoders/decoders for some of the service's messages (see MessageCodec). */
  codecs?: Codecs;
}

export interface CallOptions {
  deadlineMs?: number;
  signal?: AbortSignal;
  requestId?: string;
  metadata?: grpc.Metadata;
}

/** A promise-returning function per method, named as protobuf-es names them (embed, getModel...). */
export type ServiceClient<M extends GenServiceMethods> = {
  [K in keyof M]: (
    request: MessageInitShape<M[K]['input']>,
    options?: CallOptions,
  ) => Promise<MessageShape<M[K]['output']>>;
} & {
  /** Resolves once the channel is connected, rejects when it is not within timeoutMs. */
  waitForReady(timeoutMs: number): Promise<void>;
  close(): void;
};

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });

/**
 * A client for a protobuf-es service over one grpc-js channel (plaintext: Trove's services talk
 * inside the cluster). Rejections are grpc-js ServiceErrors: check `.code`.
 */
export function createClient<M extends GenServiceMethods>(
  service: GenService<M>,
  target: string,
  options: ClientOptions = {},
): ServiceClient<M> {
  const serviceConfig = { loadBalancingConfig: [{ [options.loadBalancing ?? 'round_robin']: {} }] };
  const client = new grpc.Client(target, grpc.credentials.createInsecure(), {
    'grpc.service_config': JSON.stringify(serviceConfig),
    // grpc-js reconnects each address in one loop of its own, with jittered exponential backoff, but
    // up to 120 s apart by default: a back end restarted after a long outage would stay unused for
    // up to two minutes. Capped so a recovered server is back in use within about 5 s.
    'grpc.initial_reconnect_backoff_ms': 200,
    'grpc.max_reconnect_backoff_ms': 5_000,
    ...options.channelOptions,
  });
  const retry = options.retry ?? { attempts: 1, initialBackoffMs: 0, maxBackoffMs: 0 };
  const retryCodes = retry.codes ?? [grpc.status.UNAVAILABLE];

  const out: Record<string, unknown> = {
    waitForReady: (timeoutMs: number) =>
      new Promise<void>((resolve, reject) =>
        client.waitForReady(deadlineAfter(timeoutMs), (err) =>
          err
            ? reject(new Error(`gRPC server at ${target} not reachable within ${timeoutMs} ms: ${err.message}`))
            : resolve(),
        ),
      ),
    close: () => client.close(),
  };

  for (const method of unaryMethods(service)) {
    const path = methodPath(method);
    const serialize = serializer(method.input, options.codecs);
    const deserialize = deserializer(method.output, options.codecs) as (bytes: Buffer) => MessageShape<DescMessage>;
    const once = (request: object, deadline: Date | undefined, callOptions: CallOptions) =>
      new Promise<MessageShape<DescMessage>>((resolve, reject) => {
        const metadata = outgoingMetadata(callOptions.requestId, callOptions.metadata);
        const call = client.makeUnaryRequest(
          path,
          serialize,
          deserialize,
          request,
          metadata,
          deadline ? { deadline } : {},
          (err, value) => (err || !value ? reject(err ?? new Error(`${path} answered nothing`)) : resolve(value)),
        );
        callOptions.signal?.addEventListener('abort', () => call.cancel(), { once: true });
      });

    out[method.localName] = async (request: object, callOptions: CallOptions = {}) => {
      const deadlineMs = callOptions.deadlineMs ?? options.deadlineMs;
      // One deadline for the call and all its retries: a retry never extends what the caller allowed.
      const deadline = deadlineMs === undefined ? undefined : deadlineAfter(deadlineMs);
      let backoff = retry.initialBackoffMs;
      for (let attempt = 1; ; attempt++) {
        try {
          return await once(request, deadline, callOptions);
        } catch (err) {
          const code = (err as grpc.ServiceError).code;
          const wait = backoff * (0.5 + Math.random() / 2);
          const timeLeft = deadline ? deadline.getTime() - Date.now() : Number.POSITIVE_INFINITY;
          if (
            attempt >= retry.attempts ||
            !retryCodes.includes(code) ||
            wait >= timeLeft ||
            callOptions.signal?.aborted
          )
            throw err;
          await sleep(wait, callOptions.signal);
          backoff = Math.min(backoff * 2, retry.maxBackoffMs);
        }
      }
    };
  }
  return out as ServiceClient<M>;
}

/** The client type of a generated service: `ClientFor<typeof EmbedderService>`. */
export type ClientFor<S> = S extends GenService<infer M> ? ServiceClient<M> : never;
