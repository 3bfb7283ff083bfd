import { MAX_MULTIPASS_ITERATIONS, OPTIMIZE_PRESETS } from '@trove/tracer';
import { uploadErrorResponses } from './common.ts';

export const optimizeFormSchema = {
  type: 'object',
  required: ['file'],
  properties: {
    file: { type: 'string', format: 'binary', description: 'SVG document (UTF-8)' },
    preset: { type: 'string', enum: [...OPTIMIZE_PRESETS], default: 'default' },
    multipass: { type: 'boolean', default: false },
    multipass_iterations: { type: 'integer', minimum: 1, maximum: MAX_MULTIPASS_ITERATIONS, default: 10 },
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
  summary: 'Optimise an SVG document with svgo',
  tags: ['optimize'],
  consumes: ['multipart/form-data'],
  response: { 200: optimizeResponseSchema, ...uploadErrorResponses },
} as const;
