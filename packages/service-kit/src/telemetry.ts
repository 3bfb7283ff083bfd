import { FastifyOtelInstrumentation } from '@fastify/otel';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { PROBE_PATHS } from './health.ts';

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
      new HttpInstrumentation({ ignoreIncomingRequestHook: (req) => PROBE_PATHS.test(req.url ?? '') }),
      new FastifyOtelInstrumentation({
        registerOnInitialization: true,
        ignorePaths: (route) => PROBE_PATHS.test(route.url),
      }),
    ],
  });
  sdk.start();
  return { shutdown: () => sdk.shutdown() };
}
