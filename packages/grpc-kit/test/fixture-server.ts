/**
 * A small gRPC service run by the kit's tests as its own process: it serves the embedder contract
 * with made-up vectors (a text's length and its first character code) so that the kit's transport,
 * limits, deadlines and shutdown can be checked without a model.
 */
import { EmbedderService } from '@trove/proto/embedder/v1';
import { EMBEDDER_PROTO, PROTO_ROOT } from '@trove/proto/files';
import { DependencyUnavailableError, loadConfig } from '@trove/service-kit';
import { GrpcError, GrpcStatus, grpcServerEnv, runGrpcService } from '../src/index.ts';

const schema = grpcServerEnv({ grpcPort: 0, port: 0, serviceName: 'grpc-kit-fixture' });
const model = {
  id: 'fixture',
  dimensions: 2,
  backend: 'fixture',
  device: 'cpu',
  maxBatch: 8,
  maxTextLength: 100,
  normalized: false,
};

await runGrpcService({
  service: 'grpc-kit-fixture',
  version: '0.0.0',
  readConfig: () => loadConfig(schema, process.env),
  maxRequestBytes: () => 1024,
  protoFiles: { root: PROTO_ROOT, files: [EMBEDDER_PROTO] },
  build: async (_config, _logger, { grpc }) => {
    grpc.addService(EmbedderService, {
      // A text "sleep:N" holds the call N ms (or until the call is cancelled), for deadline and drain tests.
      embed: async (request, call) => {
        for (const text of request.texts) {
          // "dependency-down": a required dependency of the handler is unreachable.
          if (text === 'dependency-down') {
            throw new DependencyUnavailableError(
              'database',
              'Postgres at postgres://fixture@db:5432/x refused the connection',
            );
          }
          const ms = /^sleep:(\d+)$/.exec(text)?.[1];
          if (ms) {
            await new Promise<void>((resolve) => {
              const timer = setTimeout(resolve, Number(ms));
              call.signal.addEventListener('abort', () => {
                clearTimeout(timer);
                resolve();
              });
            });
            if (call.signal.aborted) throw call.signal.reason;
          }
        }
        return {
          vectors: request.texts.map((t) => ({ values: [t.length, t.charCodeAt(0) || 0] })),
          model: `${model.id}:${call.requestId}`,
          dimensions: 2,
        };
      },
      getModel: async (request) => {
        if (request.model && request.model !== model.id)
          throw new GrpcError(GrpcStatus.NOT_FOUND, `no model "${request.model}": ask ListModels`);
        return { model };
      },
      listModels: async () => ({ models: [model] }),
    });
    return undefined;
  },
});
