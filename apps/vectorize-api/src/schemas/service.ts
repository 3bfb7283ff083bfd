export const healthRouteSchema = {
  summary: 'Service health and version',
  tags: ['service'],
  response: {
    200: {
      type: 'object',
      required: ['status', 'version'],
      properties: { status: { type: 'string', enum: ['ok'] }, version: { type: 'string' } },
    },
  },
} as const;

export const metricsRouteSchema = {
  summary: 'Counters since start: vectorize and optimize requests answered, and their mean time',
  tags: ['service'],
  response: {
    200: {
      type: 'object',
      required: ['request_count', 'avg_processing_ms'],
      properties: {
        request_count: {
          type: 'integer',
          description: 'POST /v1/vectorize and /v1/optimize requests answered (any status)',
        },
        avg_processing_ms: {
          type: 'number',
          description: 'mean milliseconds from arrival to response over those requests',
        },
      },
    },
  },
} as const;
