/** Shared JSON schemas: they validate requests, shape responses and feed the OpenAPI document. */

export const errorResponse = {
  type: 'object',
  properties: { error: { type: 'string' } },
  required: ['error'],
} as const;

export const okResponse = {
  type: 'object',
  properties: { ok: { type: 'boolean' } },
  required: ['ok'],
} as const;

export const anyObject = { type: 'object', additionalProperties: true } as const;

export const PER_PAGE_DEFAULT = 25;
export const PER_PAGE_MAX = 100;

export const pageQueryProperties = {
  page: { type: 'integer', minimum: 1, maximum: 100_000, default: 1, description: 'Page number, from 1' },
  per_page: {
    type: 'integer',
    minimum: 1,
    maximum: PER_PAGE_MAX,
    default: PER_PAGE_DEFAULT,
    description: `Items per page, 1 to ${PER_PAGE_MAX}`,
  },
} as const;

export function pageOf<T extends object>(item: T) {
  return {
    type: 'object',
    properties: {
      data: { type: 'array', items: item },
      total: { type: 'integer' },
      page: { type: 'integer' },
      per_page: { type: 'integer' },
    },
    required: ['data', 'total', 'page', 'per_page'],
  } as const;
}

/** Error responses every dashboard route can give. */
export const commonErrors = { 400: errorResponse, 401: errorResponse, 404: errorResponse } as const;

export const slugParams = {
  type: 'object',
  properties: { slug: { type: 'string', maxLength: 64 } },
  required: ['slug'],
} as const;

export const idParams = {
  type: 'object',
  properties: { id: { type: 'string', maxLength: 64 } },
  required: ['id'],
} as const;

export const sessionSecurity = [{ session: [] }];
