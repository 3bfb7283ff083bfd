/** JSON Schemas shared by routes; they feed both response serialisation and the OpenAPI document. */
export const errorSchema = {
  $id: 'Error',
  type: 'object',
  required: ['error'],
  properties: { error: { type: 'string', description: 'what went wrong, written for the caller' } },
} as const;

export const errorRef = { $ref: 'Error#' } as const;

/** Error statuses a form-upload route can answer with. */
export const uploadErrorResponses = {
  400: { ...errorRef, description: 'missing file, bad field value, unknown field, or a corrupt file' },
  413: { ...errorRef, description: 'the upload (or the image, in pixels) is over the limit' },
  415: { ...errorRef, description: 'not multipart/form-data, or a file of an unsupported type' },
} as const;

/** A file answer's body, for the OpenAPI document (sent as bytes, never serialised). */
export const fileBody = { schema: { type: 'string', format: 'binary' } } as const;

/** The query parameter that asks for the file itself instead of JSON. */
export const downloadQuery = {
  type: 'string',
  description: 'true/1/yes/on: answer the file itself, with Content-Disposition: attachment',
} as const;

/** The Accept request header, for the OpenAPI document: which types answer a file. */
export function acceptHeader<Description extends string>(description: Description) {
  return { type: 'object', properties: { accept: { type: 'string', description } } } as const;
}
