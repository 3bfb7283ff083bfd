import type { Logger } from '@trove/service-kit';
import type { ErrorsConfig } from '../config.ts';
import type { ErrorsDatabase } from '../db.ts';
import type { Json } from '../ingest/event-shape.ts';
import { readPayload } from '../ingest/prepare-event.ts';
import { sourceMaps } from './resolver.ts';

/**
 * A stored event as the API and the pages show it: its frames resolved with the project's source
 * maps as they are now (so maps uploaded after the event still apply), the frames as sent kept in
 * `raw_stacktrace`. Stored payloads stay as the SDK sent them.
 */
export async function viewPayload(
  ctx: { db: ErrorsDatabase; config: ErrorsConfig; logger: Logger },
  stored: Uint8Array,
  eventId: string,
  projectId: number,
): Promise<Json> {
  const event = readPayload(stored, eventId);
  try {
    await sourceMaps(ctx.db, ctx.config, ctx.logger).resolver.resolve(event, projectId);
  } catch (err) {
    // A broken map must not hide the event: it is shown as sent.
    ctx.logger.warn({ err, eventId }, 'could not resolve the frames of an event with its source maps');
  }
  return event;
}
