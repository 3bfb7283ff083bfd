import { envelope, newEventId } from '../../../apps/errors-api/test/support/envelopes.ts';
import { type Api, setUp } from '../../../apps/errors-api/test/support/harness.ts';

/** An errors-api process set up with its first project, and a way to send it one event. */
export interface IngestTarget {
  api: Api;
  /** Sends one event (bounded at 20 s). */
  send(message: string): Promise<Sent>;
  /** Events stored under issues whose title starts with `prefix`, by the issues' counts. */
  stored(prefix: string): Promise<number>;
}

export interface Sent {
  id: string;
  /** 0 when no answer came within the bound. */
  status: number;
  headers: Headers;
  body: string;
  ms: number;
}

export async function ingestTarget(base: string): Promise<IngestTarget> {
  const { api, dsn, projectSlug } = await setUp(base);
  const url = new URL(dsn);
  const endpoint = `${base}/api${url.pathname}/envelope/?sentry_key=${url.username}`;
  return {
    api,
    async send(message) {
      const id = newEventId();
      const started = performance.now();
      try {
        const res = await fetch(endpoint, {
          method: 'POST',
          body: envelope({ event_id: id, message, level: 'error' }),
          signal: AbortSignal.timeout(20_000),
        });
        const body = await res.text();
        return { id, status: res.status, headers: res.headers, body, ms: performance.now() - started };
      } catch (err) {
        return { id, status: 0, headers: new Headers(), body: String(err), ms: performance.now() - started };
      }
    },
    async stored(prefix) {
      const issues = (await api.call('GET', `/api/0/projects/${projectSlug}/issues?per_page=100`)).json;
      return (issues.data as { title: string; count: number }[])
        .filter((i) => i.title.startsWith(prefix))
        .reduce((sum, i) => sum + Number(i.count), 0);
    },
  };
}
