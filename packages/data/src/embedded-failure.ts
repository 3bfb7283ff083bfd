import { DependencyUnavailableError } from '@trove/service-kit';
import { DatabaseStalledError } from './pglite-thread/pglite-thread.ts';

/** Postgres' SQLSTATE for a full disk (could not extend a file, could not write WAL). */
const DISK_FULL = '53100';

/**
 * A failure of the embedded database in an error a handler threw, as a DependencyUnavailableError
 * naming its data directory: a full disk is 507 (free space and it works again, no restart), a
 * database that stopped answering or whose thread stopped is 503. Anything else: undefined.
 */
export function embeddedFailure(dataDir: string, err: unknown): DependencyUnavailableError | undefined {
  for (let e = err, depth = 0; e && depth < 6; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof DependencyUnavailableError) return e;
    const code = (e as { code?: unknown }).code;
    const message = e instanceof Error ? e.message : String(e);
    if (code === DISK_FULL || code === 'ENOSPC' || /No space left on device/i.test(message)) {
      return new DependencyUnavailableError(
        'database',
        `the embedded database in ${dataDir} cannot write: ${message}`,
        {
          statusCode: 507,
          retryAfterSeconds: 30,
          publicMessage: `insufficient storage: the disk holding the data directory ${dataDir} is full; free space there and retry`,
          cause: err,
        },
      );
    }
    if (e instanceof DatabaseStalledError || /embedded database thread stopped/.test(message)) {
      return new DependencyUnavailableError('database', message, {
        publicMessage: `the embedded database (data directory ${dataDir}) is not answering; retry later`,
        cause: err,
      });
    }
  }
  return undefined;
}
