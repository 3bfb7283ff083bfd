import { badRequest } from '@trove/service-kit';
import { DEFAULT_MULTIPASS_ITERATIONS, OPTIMIZE_PRESETS, type Tracer } from '@trove/tracer';
import { VectorizeOptionError, type VectorizeOptions, validateOptions } from '@trove/vectorize';
import type { FastifyPluginAsync } from 'fastify';
import { decodeImage } from '../../input/decode-image.ts';
import { booleanField, enumField, NO_FILE_MESSAGE, readUploadForm } from '../../input/form.ts';
import { chooseAnswer, contentDisposition, FILE_TYPES } from '../../output/file-answer.ts';
import { vectorizeFormSchema, vectorizeRouteSchema } from '../../schemas/vectorize.ts';
import { runForReply } from '../../tracing/run-for-reply.ts';

export interface VectorizeRouteOptions {
  tracer: Tracer;
  maxUploadBytes: number;
  maxImagePixels: number;
  /** TRACE_TIMEOUT_MS: the job's deadline, from the request's arrival. */
  timeoutMs: number;
}

const FORM_FIELDS = Object.keys(vectorizeFormSchema.properties).filter((name) => name !== 'file');

function tracingOptions(fields: Record<string, string>): VectorizeOptions {
  try {
    return validateOptions(fields);
  } catch (error) {
    if (error instanceof VectorizeOptionError) throw badRequest(error.message);
    throw error;
  }
}

/** `POST /v1/vectorize`: multipart image in; SVG JSON, PDF or EPS out. */
export const vectorizeRoutes: FastifyPluginAsync<VectorizeRouteOptions> = async (app, options) => {
  app.post('/v1/vectorize', { schema: vectorizeRouteSchema }, async (request, reply) => {
    // The schema refuses a parameter it does not name, or one sent twice.
    const query = request.query as Record<string, string>;
    const form = await readUploadForm(request, { maxFileBytes: options.maxUploadBytes, allowedFields: FORM_FIELDS });
    const { fields } = form;
    // Every field is checked before the file is looked at, so one answer names every kind of mistake early.
    const answer = chooseAnswer(fields, query, request.headers.accept);
    const { format } = answer;
    const optimize = booleanField(fields, 'optimize', true);
    const optimizePreset = enumField(fields, 'optimize_preset', OPTIMIZE_PRESETS, 'default');
    const multipass = booleanField(fields, 'multipass', false);
    const traceOptions = tracingOptions(fields);
    if (!form.file || form.file.length === 0) throw badRequest(NO_FILE_MESSAGE);

    const started = performance.now();
    const image = await decodeImage(form.file, options.maxImagePixels);
    form.file = null;
    const document = format === 'svg' ? undefined : format;
    // svgo runs in the tracing job itself (PDF and EPS are written from the paths, so never there).
    const optimizeSettings =
      !document && optimize && optimizePreset !== 'none'
        ? { preset: optimizePreset, multipass, iterations: DEFAULT_MULTIPASS_ITERATIONS }
        : undefined;
    const result = await runForReply(request, reply, options.timeoutMs, (job) =>
      // The decoded pixels belong to this request alone: handed over, not copied, where they can be.
      options.tracer.trace(image, traceOptions, { ...job, document, optimize: optimizeSettings, transferPixels: true }),
    );
    if (!result) return reply;
    const { svg } = result;
    if (answer.file) {
      const bytes = document ? result.document : Buffer.from(svg);
      if (!bytes) throw new Error(`the tracer returned no ${document} document`);
      return reply
        .type(FILE_TYPES[format])
        .header('content-disposition', contentDisposition(form.fileName, format))
        .header('x-engine-used', result.engineUsed)
        .header('x-path-count', String(result.pathCount))
        .send(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    }
    return {
      svg,
      engine_used: result.engineUsed,
      metadata: {
        input_size: [result.width, result.height],
        svg_byte_size: Buffer.byteLength(svg),
        path_count: result.pathCount,
        processing_time_ms: Math.round((performance.now() - started) * 100) / 100,
        engine_used: result.engineUsed,
      },
    };
  });
};
