import { FastifyOtelInstrumentation } from '@fastify/otel';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { NodeSDK } from '@opentelemetry/sdk-node';

export interface Telemetry {
  shutdown(): Promise<void>;
}

/**
 * Starts OpenTelemetry tracing that exports spans over OTLP/HTTP. Called by the process shell only
 * when OTEL_EXPORTER_OTLP_ENDPOINT is set, before the app is built, so that the Fastify
 * instrumentation sees the app being created.
 */
export function startTelemetry(options: { endpoint: string; serviceName: string; version: string }): Telemetry {
  const sdk = new NodeSDK({
    serviceName: options.serviceName,
    traceExporter: new OTLPTraceExporter({ url: `${options.endpoint.replace(/\/+$/, '')}/v1/traces` }),
    instrumentations: [
      new HttpInstrumentation({
        // Probes and scrapes would drown the traces that matter.
        ignoreIncomingRequestHook: (req) => /^\/(livez|readyz|metrics)\b/.test(req.url ?? ''),
      }),
      new FastifyOtelInstrumentation({ registerOnInitialization: true }),
    ],
  });
  sdk.start();
  return { shutdown: () => sdk.shutdown() };
}
