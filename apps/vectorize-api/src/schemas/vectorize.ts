import { OPTIMIZE_PRESETS } from '@trove/tracer';
import {
  COLOR_MODES,
  ENGINES,
  HIERARCHICAL_MODES,
  NUMERIC_RANGES,
  PATH_SIMPLIFY_MODES,
  PRESETS,
  PROFILES,
} from '@trove/vectorize';
import { acceptHeader, downloadQuery, errorRef, fileBody, uploadErrorResponses } from './common.ts';

export const OUTPUT_FORMATS = ['svg', 'pdf', 'eps'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

function numericField(name: keyof typeof NUMERIC_RANGES, description: string) {
  const range = NUMERIC_RANGES[name] as { min: number; max: number; integer?: boolean };
  return {
    type: range.integer === false ? 'number' : 'integer',
    minimum: range.min,
    maximum: range.max,
    description,
  };
}

/** The multipart form of POST /v1/vectorize, for the OpenAPI document (the route validates it itself). */
export const vectorizeFormSchema = {
  type: 'object',
  required: ['file'],
  properties: {
    file: { type: 'string', format: 'binary', description: 'PNG, JPEG, WebP, BMP, GIF or TIFF image' },
    engine: { type: 'string', enum: [...ENGINES], default: 'auto' },
    format: {
      type: 'string',
      enum: [...OUTPUT_FORMATS],
      default: 'svg',
      description:
        'svg answers JSON unless the Accept header asks for image/svg+xml or download is on; pdf and eps answer the file. Without this field, the query parameter format, then the Accept header, decide',
    },
    download: {
      type: 'boolean',
      default: false,
      description: 'answer the SVG file itself (image/svg+xml, Content-Disposition: attachment) instead of JSON',
    },
    preset: { type: 'string', enum: [...PRESETS], description: 'tracing preset' },
    profile: { type: 'string', enum: [...PROFILES], description: 'tracing profile (applied after the preset)' },
    optimize: { type: 'boolean', default: true, description: 'optimise the SVG with svgo (format svg only)' },
    optimize_preset: { type: 'string', enum: [...OPTIMIZE_PRESETS], default: 'default' },
    multipass: {
      type: 'boolean',
      default: false,
      description: 'repeat optimisation until it stops shrinking (at most 10 passes)',
    },
    color_precision: numericField('color_precision', 'significant bits per channel when clustering'),
    filter_speckle: numericField('filter_speckle', 'pieces of at most value² pixels are absorbed'),
    corner_threshold: numericField('corner_threshold', 'degrees; sharper turns stay corners'),
    splice_threshold: numericField('splice_threshold', 'degrees of accumulated turn before a new curve'),
    color_mode: { type: 'string', enum: [...COLOR_MODES], default: 'color' },
    hierarchical: { type: 'string', enum: [...HIERARCHICAL_MODES], default: 'stacked' },
    path_simplify: { type: 'string', enum: [...PATH_SIMPLIFY_MODES], default: 'spline' },
    layer_difference: numericField('layer_difference', 'colour distance for a cluster to stay its own layer'),
    length_threshold: numericField('length_threshold', 'smoothing subdivides segments longer than this (px)'),
    max_iterations: numericField('max_iterations', 'rounds of subdivision smoothing'),
    path_precision: numericField('path_precision', 'decimals written for coordinates'),
  },
} as const;

export const vectorizeSvgResponseSchema = {
  type: 'object',
  required: ['svg', 'engine_used', 'metadata'],
  properties: {
    svg: { type: 'string', description: 'the SVG document' },
    engine_used: { type: 'string', enum: ['spline', 'pixel-exact'] },
    metadata: {
      type: 'object',
      required: ['input_size', 'svg_byte_size', 'path_count', 'processing_time_ms', 'engine_used'],
      properties: {
        input_size: {
          type: 'array',
          items: { type: 'integer' },
          minItems: 2,
          maxItems: 2,
          description: '[width, height]',
        },
        svg_byte_size: { type: 'integer', description: 'UTF-8 bytes of svg' },
        path_count: { type: 'integer' },
        processing_time_ms: { type: 'number', description: 'decoding, tracing and optimisation' },
        engine_used: { type: 'string', enum: ['spline', 'pixel-exact'] },
      },
    },
  },
} as const;

export const vectorizeRouteSchema = {
  summary: 'Trace a raster image into SVG (JSON or the file), PDF or EPS',
  description:
    'JSON is the default answer for SVG. The file itself comes back, with `Content-Disposition: attachment; filename="<upload name>.<svg|pdf|eps>"`, for `format=pdf` or `eps`, for `Accept: image/svg+xml`, `application/pdf` or `application/postscript` (when no format is sent, the Accept header picks it; `*/*` keeps JSON), or with `download=1` (query or form). File answers carry `X-Engine-Used` and `X-Path-Count`.',
  tags: ['vectorize'],
  consumes: ['multipart/form-data'],
  produces: ['application/json', 'image/svg+xml', 'application/pdf', 'application/postscript'],
  querystring: {
    type: 'object',
    properties: {
      format: {
        type: 'string',
        enum: [...OUTPUT_FORMATS],
        description: 'as the form field format (which wins when both are sent and agree; a conflict is a 400)',
      },
      download: downloadQuery,
    },
    additionalProperties: false,
  },
  headers: acceptHeader(
    'image/svg+xml, application/pdf or application/postscript (named explicitly, above application/json) answer that file; anything else keeps the JSON default',
  ),
  response: {
    200: {
      description:
        'format svg: JSON, or the SVG file (Accept: image/svg+xml or download); pdf: application/pdf; eps: application/postscript. Files come with Content-Disposition: attachment',
      headers: {
        'content-disposition': {
          type: 'string',
          description: 'file answers only: attachment; filename="<upload name without extension>.<format>"',
        },
      },
      content: {
        'application/json': { schema: vectorizeSvgResponseSchema },
        'image/svg+xml': fileBody,
        'application/pdf': fileBody,
        'application/postscript': fileBody,
      },
    },
    ...uploadErrorResponses,
    503: {
      ...errorRef,
      description: 'every tracing worker is busy and the queue is full; retry after Retry-After seconds',
    },
  },
} as const;
