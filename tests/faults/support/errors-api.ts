import { envelope, newEventId } from '../../../apps/errors-api/test/support/envelopes.ts';
import { type Api, setUp } from '../../../apps/errors-api/test/support/harness.ts';

/** An errors-api process set up with its first project, and a way to send it one event. */
export interface IngestTarget {
  api: Api;
  /** Sends one event; resolves to its status (0 when no answer came within the bound) and the time taken. */
  send(message: string): Promise<{ id: string; status: number; ms: number; body: string }>;
  /** Events stored under issues whose title starts with `prefix`, by the issues' counts. */
  stored(prefix: string): Promise<number>;
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
        return { id, status: res.status, body: await res.text(), ms: performance.now() - started };
      } catch (err) {
        return { id, status: 0, body: String(err), ms: performance.now() - started };
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

export const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};
