import { randomBytes } from 'node:crypto';

export const newEventId = () => randomBytes(16).toString('hex');

/** An envelope as SDKs write it: header line, then item header and payload lines. */
export function envelope(event: object, options: { header?: object; extraItems?: [object, Buffer | string][] } = {}) {
  const payload = Buffer.from(JSON.stringify(event));
  const parts: Buffer[] = [
    Buffer.from(`${JSON.stringify({ event_id: (event as { event_id?: string }).event_id, ...options.header })}\n`),
  ];
  for (const [header, body] of options.extraItems ?? []) {
    const bytes = Buffer.from(body);
    parts.push(Buffer.from(`${JSON.stringify({ ...header, length: bytes.length })}\n`), bytes, Buffer.from('\n'));
  }
  parts.push(Buffer.from(`${JSON.stringify({ type: 'event', length: payload.length })}\n`), payload, Buffer.from('\n'));
  return Buffer.concat(parts);
}

export function errorEvent(message: string, extra: object = {}) {
  return {
    event_id: newEventId(),
    level: 'error',
    platform: 'node',
    exception: {
      values: [
        {
          type: 'TypeError',
          value: message,
          stacktrace: {
            frames: [
              { filename: '/app/node_modules/lib/index.js', function: 'run', in_app: false, lineno: 10 },
              { filename: '/app/src/handler.js', module: 'handler', function: 'handle', in_app: true, lineno: 42 },
            ],
          },
        },
      ],
    },
    ...extra,
  };
}
