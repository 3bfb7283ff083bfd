import type { DescMessage, DescMethod, MessageInitShape, MessageShape } from '@bufbuild/protobuf';
import * as grpc from '@grpc/grpc-js';
import { loadSync } from '@grpc/proto-loader';
import { ReflectionService } from '@grpc/reflection';
import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { Logger, Registry } from '@trove/service-kit';
import { Counter, DependencyUnavailableError, Histogram, runWithRequestId } from '@trove/service-kit';
import { HealthImplementation } from 'grpc-health-check';
import { callDeadline, GrpcError, incomingContext, incomingRequestId, REQUEST_ID_KEY, statusName } from './context.ts';
import {
  type Codecs,
  type GenService,
  type GenServiceMethods,
  grpcServiceDefinition,
  UnreadableRequest,
} from './definition.ts';

/** What a handler knows about the call it answers. */
export interface CallContext {
  /** Proto name of the method, e.g. "Embed". */
  readonly method: string;
  readonly metadata: grpc.Metadata;
  readonly requestId: string;
  /** Epoch ms after which the caller has given up; undefined when it set no deadline. */
  readonly deadline: number | undefined;
  /** Aborted when the caller cancels or its deadline passes: drop the work then. */
  readonly signal: AbortSignal;
  readonly log: Logger;
}

type UnaryHandler<I extends DescMessage, O extends DescMessage> = (
  request: MessageShape<I>,
  call: CallContext,
) => Promise<MessageInitShape<O>>;

/** One async function per method of the service, named as protobuf-es names them (embed, getModel...). */
export type ServiceHandlers<M extends GenServiceMethods> = {
  [K in keyof M]: UnaryHandler<M[K]['input'], M[K]['output']>;
};

export interface GrpcServerOptions {
  logger: Logger;
  /** Where the per-method metrics are registered (the side port's /metrics). */
  registry: Registry;
  /** Requests larger than this are answered INVALID_ARGUMENT with a message naming the limit. */
  maxRequestBytes?: number;
  /** The .proto files behind the services, for server reflection (grpcurl, grpcui). */
  protoFiles?: { root: string; files: string[] };
}

/** A cancellation this close to the call's deadline is taken for the deadline (see wrap). */
const DEADLINE_SKEW_MS = 250;
const HANDLING_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
// A no-op until the process shell starts OpenTelemetry (OTEL_EXPORTER_OTLP_ENDPOINT).
const tracer = trace.getTracer('@trove/grpc-kit');

/**
 * A grpc-js server for protobuf-es services, with the standard grpc.health.v1 service, server
 * reflection, per-method metrics, request ids and trace context from metadata, and a drain that
 * lets in-flight calls finish.
 */
export class GrpcServer {
  readonly server: grpc.Server;
  private readonly health = new HealthImplementation({ '': 'NOT_SERVING' });
  private readonly serviceNames: string[] = [];
  private readonly handled: Counter<'grpc_service' | 'grpc_method' | 'grpc_code'>;
  private readonly handling: Histogram<'grpc_service' | 'grpc_method'>;
  private inFlightCalls = 0;

  constructor(private readonly options: GrpcServerOptions) {
    // grpc-js' own limit sits well above ours, so that a moderately oversized request still reaches
    // the handler and gets a message saying what to fix; beyond it grpc-js answers RESOURCE_EXHAUSTED.
    const limit =
      options.maxRequestBytes === undefined ? 4 * 1024 * 1024 : Math.max(options.maxRequestBytes * 4, 16 * 1024 * 1024);
    this.server = new grpc.Server({ 'grpc.max_receive_message_length': limit });
    this.health.addToServer(this.server);
    if (options.protoFiles) {
      const definition = loadSync(options.protoFiles.files, { includeDirs: [options.protoFiles.root] });
      new ReflectionService(definition).addToServer(this.server);
    }
    this.handled = new Counter({
      name: 'grpc_server_handled_total',
      help: 'gRPC calls answered, by service, method and status code',
      labelNames: ['grpc_service', 'grpc_method', 'grpc_code'],
      registers: [options.registry],
    });
    this.handling = new Histogram({
      name: 'grpc_server_handling_seconds',
      help: 'Time from receiving a gRPC call to answering it, by service and method',
      labelNames: ['grpc_service', 'grpc_method'],
      buckets: HANDLING_BUCKETS,
      registers: [options.registry],
    });
  }

  /** Calls being answered right now. */
  get inFlight(): number {
    return this.inFlightCalls;
  }

  /** codecs: hand-written encoders/decoders for some of the service's messages (see MessageCodec). */
  addService<M extends GenServiceMethods>(
    service: GenService<M>,
    handlers: ServiceHandlers<M>,
    options: { codecs?: Codecs } = {},
  ): void {
    const definition = grpcServiceDefinition(service, {
      maxRequestBytes: this.options.maxRequestBytes,
      codecs: options.codecs,
    });
    const implementation: grpc.UntypedServiceImplementation = {};
    for (const method of service.methods) {
      const handler = handlers[method.localName as keyof M] as UnaryHandler<DescMessage, DescMessage>;
      if (!handler) throw new Error(`no handler for ${service.typeName}.${method.name}`);
      implementation[method.name] = this.wrap(method, handler);
    }
    this.server.addService(definition, implementation);
    this.serviceNames.push(service.typeName);
  }

  /** Binds host:port (0 picks a free port) and returns the port bound. */
  async listen(host: string, port: number): Promise<number> {
    const address = host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
    return new Promise((resolve, reject) => {
      this.server.bindAsync(address, grpc.ServerCredentials.createInsecure(), (err, bound) =>
        err ? reject(new Error(`gRPC could not listen on ${address}: ${err.message}`)) : resolve(bound),
      );
    });
  }

  /** What grpc.health.v1 answers for the whole server and for each service. */
  setServing(serving: boolean): void {
    const state = serving ? 'SERVING' : 'NOT_SERVING';
    for (const name of ['', ...this.serviceNames]) this.health.setStatus(name, state);
  }

  /**
   * Stops accepting calls, lets in-flight ones finish, then closes. After timeoutMs the remaining
   * calls are cancelled; resolves to whether everything finished in time.
   */
  async drain(timeoutMs: number): Promise<boolean> {
    this.setServing(false);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.options.logger.error(
          { inFlight: this.inFlightCalls, timeoutMs },
          'gRPC drain timed out; cancelling calls',
        );
        this.server.forceShutdown();
        resolve(false);
      }, timeoutMs);
      this.server.tryShutdown(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }

  private wrap(
    method: DescMethod,
    handler: UnaryHandler<DescMessage, DescMessage>,
  ): grpc.handleUnaryCall<unknown, unknown> {
    const labels = { grpc_service: method.parent.typeName, grpc_method: method.name };
    const timer = this.handling.labels(labels);
    return (call, callback) => {
      const started = performance.now();
      this.inFlightCalls++;
      // One server span per call, a child of the caller's span when its metadata carries traceparent.
      const parent = incomingContext(call.metadata);
      const span = tracer.startSpan(
        `${labels.grpc_service}/${labels.grpc_method}`,
        {
          kind: SpanKind.SERVER,
          attributes: { 'rpc.system': 'grpc', 'rpc.service': labels.grpc_service, 'rpc.method': labels.grpc_method },
        },
        parent,
      );
      const requestId = incomingRequestId(call.metadata);
      const log = this.options.logger.child({ requestId, grpcMethod: method.name });
      const aborter = new AbortController();
      const deadline = callDeadline(call.getDeadline());
      // grpc-js ends a call at its deadline itself, which also reads as "cancelled": name the cause.
      // The caller's clock started before ours (by the call's transit and our wait to read it), so
      // its deadline cancels the call a little before ours passes: near ours, that is the cause.
      const onCancel = () =>
        aborter.abort(
          deadline !== undefined && Date.now() >= deadline - DEADLINE_SKEW_MS
            ? new GrpcError(grpc.status.DEADLINE_EXCEEDED, 'the deadline passed')
            : new GrpcError(grpc.status.CANCELLED, 'the caller cancelled the call'),
        );
      call.once('cancelled', onCancel);
      const deadlineTimer =
        deadline === undefined
          ? undefined
          : setTimeout(
              () => aborter.abort(new GrpcError(grpc.status.DEADLINE_EXCEEDED, 'the deadline passed')),
              Math.max(0, deadline - Date.now()),
            );
      // The request id goes back in the trailers: headers sent ahead of the answer would cost a
      // frame of their own per call (measured: ~15% of a one-text Embed call's time on loopback).
      const trailer = new grpc.Metadata();
      trailer.set(REQUEST_ID_KEY, requestId);

      const finish = (code: grpc.status, error: Error | null, response?: unknown) => {
        clearTimeout(deadlineTimer);
        call.removeListener('cancelled', onCancel);
        this.inFlightCalls--;
        this.handled.labels({ ...labels, grpc_code: statusName(code) }).inc();
        const seconds = (performance.now() - started) / 1000;
        timer.observe(seconds);
        // One line per call, as the HTTP services log each request: the request id a caller sent
        // (x-request-id in metadata) ties it to the HTTP request that caused it.
        log.info({ grpcCode: statusName(code), responseTime: Math.round(seconds * 1e4) / 10 }, 'gRPC call completed');
        span.setAttribute('rpc.grpc.status_code', code);
        if (error) span.setStatus({ code: SpanStatusCode.ERROR, message: `${statusName(code)}: ${error.message}` });
        span.end();
        if (error) callback({ code, details: error.message, metadata: trailer } as grpc.ServiceError);
        else callback(null, response, trailer);
      };

      const request = call.request;
      if (request instanceof UnreadableRequest) {
        finish(grpc.status.INVALID_ARGUMENT, new Error(request.reason));
        return;
      }
      const callContext: CallContext = {
        method: method.name,
        metadata: call.metadata,
        requestId,
        deadline,
        signal: aborter.signal,
        log,
      };
      context
        .with(trace.setSpan(parent, span), () =>
          runWithRequestId(requestId, () => handler(request as never, callContext)),
        )
        .then(
          (response) => finish(grpc.status.OK, null, response),
          (err: unknown) => {
            if (err instanceof GrpcError) return finish(err.code, err);
            // A required dependency that is down: the caller may retry (on another replica, or later).
            if (err instanceof DependencyUnavailableError) {
              log.warn({ err, dependency: err.dependency }, `gRPC call refused: ${err.message}`);
              return finish(grpc.status.UNAVAILABLE, new Error(err.publicMessage));
            }
            log.error({ err }, 'gRPC handler failed');
            finish(grpc.status.INTERNAL, new Error('internal server error'));
          },
        );
    };
  }
}

/** The handlers type of a generated service: `HandlersFor<typeof EmbedderService>`. */
export type HandlersFor<S> = S extends GenService<infer M extends GenServiceMethods> ? ServiceHandlers<M> : never;
