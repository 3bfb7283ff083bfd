import { badRequest } from '@trove/service-kit';
import { DEFAULT_MULTIPASS_ITERATIONS, MAX_MULTIPASS_ITERATIONS, OPTIMIZE_PRESETS, type Tracer } from '@trove/tracer';
import type { FastifyPluginAsync } from 'fastify';
import { booleanField, enumField, integerField, NO_FILE_MESSAGE, readUploadForm } from '../../input/form.ts';
import { checkSvgText, svgText } from '../../input/svg-safety.ts';
import { contentDisposition, FILE_TYPES, svgFileAsked } from '../../output/file-answer.ts';
import { optimizeFormSchema, optimizeRouteSchema } from '../../schemas/optimize.ts';
import { runForReply } from '../../tracing/run-for-reply.ts';

export interface OptimizeRouteOptions {
  tracer: Tracer;
  maxUploadBytes: number;
  /** TRACE_TIMEOUT_MS: the job's deadline, from the request's arrival. */
  timeoutMs: number;
}

const FORM_FIELDS = Object.keys(optimizeFormSchema.properties).filter((name) => name !== 'file');

/** `POST /v1/optimize`: an SVG in, the optimised SVG and its size reduction out (JSON or the file). */
export const optimizeRoutes: FastifyPluginAsync<OptimizeRouteOptions> = async (app, options) => {
  app.post('/v1/optimize', { schema: optimizeRouteSchema }, async (request, reply) => {
    // The schema refuses a parameter it does not name, or one sent twice.
    const query = request.query as Record<string, string>;
    const form = await readUploadForm(request, { maxFileBytes: options.maxUploadBytes, allowedFields: FORM_FIELDS });
    const { fields } = form;
    const asFile = svgFileAsked(fields, query, request.headers.accept);
    const preset = enumField(fields, 'preset', OPTIMIZE_PRESETS, 'default');
    const multipass = booleanField(fields, 'multipass', false);
    const iterations = integerField(
      fields,
      'multipass_iterations',
      { min: 1, max: MAX_MULTIPASS_ITERATIONS },
      DEFAULT_MULTIPASS_ITERATIONS,
    );
    if (!form.file || form.file.length === 0) throw badRequest(NO_FILE_MESSAGE);

    const text = svgText(form.file);
    checkSvgText(text);
    // svgo is CPU-bound on large documents, so it runs on the worker pool like tracing.
    const result = await runForReply(request, reply, options.timeoutMs, (job) =>
      options.tracer.optimize(text, { preset, multipass, iterations }, job),
    );
    if (result === null) return reply;
    const { svg } = result;
    const originalSize = form.file.length;
    const optimizedSize = Buffer.byteLength(svg);
    if (asFile)
      return reply
        .type(FILE_TYPES.svg)
        .header('content-disposition', contentDisposition(form.fileName, 'min.svg'))
        .header('x-original-size', String(originalSize))
        .header('x-unsafe-removed', String(result.removed))
        .send(svg);
    return {
      svg,
      original_size: originalSize,
      optimized_size: optimizedSize,
      reduction_pct: Math.round(((originalSize - optimizedSize) / originalSize) * 10000) / 100,
      unsafe_removed: result.removed,
    };
  });
};
