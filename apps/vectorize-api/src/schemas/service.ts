const count = (description: string) => ({ type: 'integer', minimum: 0, description }) as const;

export const healthRouteSchema = {
  summary: 'Service health and version, and what tracing can take now',
  tags: ['service'],
  response: {
    200: {
      type: 'object',
      required: ['status', 'version', 'tracing'],
      properties: {
        status: {
          type: 'string',
          enum: ['ok', 'degraded'],
          description: '`degraded`: no vectorizer-worker answered the last capacity poll (traces get 503)',
        },
        version: { type: 'string' },
        tracing: {
          type: 'object',
          required: ['mode', 'threads', 'queue_length', 'busy', 'queued', 'spare_capacity'],
          properties: {
            mode: {
              type: 'string',
              enum: ['in-process', 'remote'],
              description:
                '`remote`: on vectorizer-worker servers (VECTORIZER_WORKER_URL); figures from their last poll',
            },
            workers: count('remote: worker servers the target resolves to'),
            workers_reachable: count('remote: worker servers that answered the last capacity poll'),
            threads: count('tracing threads (over the reachable workers)'),
            queue_length: count('jobs allowed to wait when every thread is busy'),
            busy: count('jobs running'),
            queued: count('jobs waiting'),
            spare_capacity: count('jobs that would be accepted now: free threads plus free queue places'),
          },
        },
      },
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
