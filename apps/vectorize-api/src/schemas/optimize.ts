import { MAX_MULTIPASS_ITERATIONS, OPTIMIZE_PRESETS } from '@trove/tracer';
import { acceptHeader, downloadQuery, fileBody, uploadErrorResponses } from './common.ts';

export const optimizeFormSchema = {
  type: 'object',
  required: ['file'],
  properties: {
    file: { type: 'string', format: 'binary', description: 'SVG document (UTF-8)' },
    preset: { type: 'string', enum: [...OPTIMIZE_PRESETS], default: 'default' },
    multipass: { type: 'boolean', default: false },
    multipass_iterations: { type: 'integer', minimum: 1, maximum: MAX_MULTIPASS_ITERATIONS, default: 10 },
    download: {
      type: 'boolean',
      default: false,
      description:
        'answer the optimised SVG file itself (image/svg+xml, Content-Disposition: attachment) instead of JSON',
    },
  },
} as const;

export const optimizeResponseSchema = {
  type: 'object',
  required: ['svg', 'original_size', 'optimized_size', 'reduction_pct', 'unsafe_removed'],
  properties: {
    svg: { type: 'string' },
    original_size: { type: 'integer', description: 'bytes uploaded' },
    optimized_size: { type: 'integer', description: 'UTF-8 bytes of svg' },
    reduction_pct: { type: 'number', description: '100 × (original − optimized) / original, two decimals' },
    unsafe_removed: {
      type: 'integer',
      minimum: 0,
      description:
        'elements, attributes, CSS rules, outside url()s and processing instructions removed because they referenced something outside the document (anything but #id or an embedded data:image raster) or could run script; removed with every preset, none included. An outside url() gives way to its fallback (url(...) #f00 becomes #f00), or else to none, as in a browser that cannot load it',
    },
  },
} as const;

export const optimizeRouteSchema = {
  summary: 'Optimise an SVG document with svgo (JSON or the file)',
  description:
    'JSON is the default answer. The optimised SVG file itself comes back, with `Content-Disposition: attachment; filename="<upload name>.min.svg"`, for `Accept: image/svg+xml` (named explicitly, above application/json; `*/*` keeps JSON) or with `download=1` (query or form). File answers carry `X-Original-Size` and `X-Unsafe-Removed`; the optimised size is the Content-Length.',
  tags: ['optimize'],
  consumes: ['multipart/form-data'],
  produces: ['application/json', 'image/svg+xml'],
  querystring: { type: 'object', properties: { download: downloadQuery }, additionalProperties: false },
  headers: acceptHeader(
    'image/svg+xml (named explicitly, above application/json) answers the file; anything else keeps JSON',
  ),
  response: {
    200: {
      description:
        'JSON, or the optimised SVG file (Accept: image/svg+xml or download) with Content-Disposition: attachment',
      headers: {
        'content-disposition': {
          type: 'string',
          description: 'file answers only: attachment; filename="<upload name>.min.svg"',
        },
        'x-original-size': { type: 'integer', description: 'file answers only: bytes uploaded' },
        'x-unsafe-removed': { type: 'integer', description: 'file answers only: as unsafe_removed in the JSON answer' },
      },
      content: { 'application/json': { schema: optimizeResponseSchema }, 'image/svg+xml': fileBody },
    },
    ...uploadErrorResponses,
  },
} as const;
