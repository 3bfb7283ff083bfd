import { gzipSync } from 'node:zlib';

/** Issues the benchmark's events fall into: realistic traffic repeats a few errors many times. */
const KINDS = 20;

function frames(kind: number, count: number) {
  return Array.from({ length: count }, (_, i) => ({
    filename: i % 3 === 0 ? `/srv/app/node_modules/lib${i}/index.js` : `/srv/app/src/module${kind}/file${i}.js`,
    module: i % 3 === 0 ? `lib${i}` : `module${kind}.file${i}`,
    function: `handler${kind}_${i}`,
    lineno: 10 + i,
    colno: 5,
    in_app: i % 3 !== 0,
    context_line: `    const result = await step${i}(request, response, next); // ${'x'.repeat(20)}`,
    pre_context: ['  try {', '    validate(input);'],
    post_context: ['  } catch (err) {', '    throw err;'],
  }));
}

/** The event body after its event_id: exception with frames, breadcrumbs, contexts, padded to size. */
function eventTail(kind: number, targetBytes: number): string {
  const event: Record<string, unknown> = {
    timestamp: 1_795_000_000.123,
    platform: 'node',
    level: 'error',
    environment: 'production',
    release: 'shop@4.2.1',
    server_name: 'web-7',
    sdk: { name: 'sentry.javascript.node', version: '11.12.0' },
    contexts: { runtime: { name: 'node', version: 'v20.20.0' }, os: { name: 'Linux' } },
    tags: { region: 'eu-west-1', route: `/api/orders/${kind}` },
    exception: {
      values: [
        {
          type: `OrderError${kind}`,
          value: `could not load order ${1000 + kind} for user ${kind}@example.com`,
          mechanism: { type: 'onunhandledrejection', handled: false },
          stacktrace: { frames: frames(kind, 12) },
        },
      ],
    },
    breadcrumbs: [] as unknown[],
    extra: {} as Record<string, string>,
  };
  const crumbs = event.breadcrumbs as unknown[];
  let text = JSON.stringify(event);
  // Breadcrumbs are what makes real events big: add them until the event reaches its size.
  while (text.length < targetBytes - 300) {
    crumbs.push({
      timestamp: 1_795_000_000 + crumbs.length,
      category: 'http',
      type: 'http',
      data: { method: 'GET', url: `https://api.example.com/v1/items/${crumbs.length}?page=2`, status_code: 200 },
      message: `fetched item ${crumbs.length} from the catalogue service`,
    });
    text = JSON.stringify(event);
  }
  (event.extra as Record<string, string>).pad = 'p'.repeat(Math.max(0, targetBytes - text.length - 40));
  return JSON.stringify(event).slice(1); // without the opening brace: the event_id goes first
}

export interface PayloadSet {
  label: string;
  /** Bytes of one event as the SDK serialises it (before compression). */
  eventBytes: number;
  gzip: boolean;
  /** Per kind: what follows the event_id, precompressed when gzip is on. */
  tails: Buffer[];
  tailLengths: number[];
}

/**
 * Events over 32 KiB go out gzipped, as the SDK sends them. So that every request has a new
 * event_id without gzipping 50 KB per request, the body is two gzip members: a small one with the
 * envelope and item headers and the event_id, and a precompressed one with the rest.
 */
export function payloadSet(label: string, eventBytes: number, gzip: boolean): PayloadSet {
  const raw = Array.from({ length: KINDS }, (_, kind) => Buffer.from(`${eventTail(kind, eventBytes)}\n`));
  return {
    label,
    eventBytes,
    gzip,
    tails: gzip ? raw.map((t) => gzipSync(t)) : raw,
    tailLengths: raw.map((t) => t.length - 1),
  };
}
