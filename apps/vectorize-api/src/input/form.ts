import type { Multipart } from '@fastify/multipart';
import { badRequest, HttpError, payloadTooLarge } from '@trove/service-kit';
import type { FastifyRequest } from 'fastify';

export interface UploadForm {
  /** The `file` part's bytes; null when the form had no file. */
  file: Buffer | null;
  /** The name the client gave the file part, if any (used only to name a downloaded result). */
  fileName?: string;
  fields: Record<string, string>;
}

export interface FormLimits {
  maxFileBytes: number;
  /** The form fields a route knows; any other name is a 400 that lists these. */
  allowedFields: readonly string[];
}

const MAX_FIELD_BYTES = 1024;

/**
 * Reads a multipart form into memory (never to disk): one file part named `file`, plus short text
 * fields. Unknown, repeated or oversized fields are refused so mistakes do not pass silently.
 */
export async function readUploadForm(request: FastifyRequest, limits: FormLimits): Promise<UploadForm> {
  if (!request.isMultipart()) {
    throw new HttpError(415, 'send the request as multipart/form-data with the file in the field "file"');
  }
  let file: Buffer | null = null;
  let fileName: string | undefined;
  const fields: Record<string, string> = {};
  const parts: AsyncIterableIterator<Multipart> = request.parts({
    limits: {
      fileSize: limits.maxFileBytes,
      files: 1,
      fields: limits.allowedFields.length + 1,
      fieldSize: MAX_FIELD_BYTES,
      parts: limits.allowedFields.length + 2,
    },
  });
  try {
    for await (const part of parts) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file') {
          part.file.resume();
          throw badRequest(`the file must be sent in the form field "file" (got "${part.fieldname}")`);
        }
        file = await part.toBuffer();
        fileName = part.filename || undefined;
        continue;
      }
      const name = part.fieldname;
      if (!limits.allowedFields.includes(name)) {
        throw badRequest(`unknown form field "${name}"; allowed fields: file, ${limits.allowedFields.join(', ')}`);
      }
      if (name in fields) throw badRequest(`form field "${name}" was sent more than once`);
      if (part.valueTruncated) throw badRequest(`form field "${name}" is too long`);
      fields[name] = String(part.value).trim();
    }
  } catch (error) {
    throw asClientError(error, limits.maxFileBytes);
  }
  return { file, fileName, fields };
}

function asClientError(error: unknown, maxFileBytes: number): unknown {
  if (error instanceof HttpError) return error;
  const err = error as { code?: string; statusCode?: number; message?: string };
  if (err.code === 'FST_REQ_FILE_TOO_LARGE') {
    return payloadTooLarge(`the uploaded file is larger than the limit of ${maxFileBytes} bytes`);
  }
  if (err.code === 'FST_FILES_LIMIT') return badRequest('send exactly one file, in the form field "file"');
  if (err.code === 'FST_FIELDS_LIMIT' || err.code === 'FST_PARTS_LIMIT')
    return badRequest('the form has too many fields');
  if (typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500) {
    return new HttpError(err.statusCode, err.message ?? 'malformed multipart body');
  }
  // Busboy reports a malformed body (bad boundary, cut-off stream) as a plain Error.
  if (error instanceof Error && !('statusCode' in error))
    return badRequest(`malformed multipart body: ${error.message}`);
  return error;
}

const TRUE = ['true', '1', 'yes', 'on'];
const FALSE = ['false', '0', 'no', 'off'];

/** A boolean form field: true/false (also 1/0, yes/no, on/off); unset or empty gives the fallback. */
export function booleanField(fields: Record<string, string>, name: string, fallback: boolean): boolean {
  const raw = fields[name];
  if (raw === undefined || raw === '') return fallback;
  const value = raw.toLowerCase();
  if (TRUE.includes(value)) return true;
  if (FALSE.includes(value)) return false;
  throw badRequest(`${name} must be true or false (got "${raw}")`);
}

export function enumField<const T extends string>(
  fields: Record<string, string>,
  name: string,
  allowed: readonly T[],
  fallback: T,
): T {
  const raw = fields[name];
  if (raw === undefined || raw === '') return fallback;
  if (!(allowed as readonly string[]).includes(raw)) {
    throw badRequest(`${name} must be one of ${allowed.join(', ')} (got "${raw}")`);
  }
  return raw as T;
}

export function integerField(
  fields: Record<string, string>,
  name: string,
  range: { min: number; max: number },
  fallback: number,
): number {
  const raw = fields[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!/^-?\d+$/.test(raw) || value < range.min || value > range.max) {
    throw badRequest(`${name} must be an integer from ${range.min} to ${range.max} (got "${raw}")`);
  }
  return value;
}

export const NO_FILE_MESSAGE = 'no file was provided: send the file in the multipart form field "file"';
