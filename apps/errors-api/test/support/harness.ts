import type { AddressInfo } from 'node:net';
import { createLogger } from '@trove/service-kit';
import type { FastifyInstance } from 'fastify';
import { buildErrorsApp } from '../../src/app.ts';
import { readConfig } from '../../src/config.ts';

export const logger = createLogger({ service: 'errors-api', level: 'silent', format: 'json' });

export const ADMIN = { email: 'admin@example.com', name: 'Ada Admin', password: 'correct horse battery' };

export interface Running {
  app: FastifyInstance;
  url: string;
  close(): Promise<void>;
}

/** The real app on a loopback port, with whatever configuration the test needs. */
export async function startErrorsApi(env: Record<string, string> = {}): Promise<Running> {
  const app = await buildErrorsApp(readConfig({ DATA_DIR: 'memory://', ...env }), logger);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;
  return { app, url: `http://127.0.0.1:${port}`, close: () => app.close() };
}

/** A parsed JSON response body; tests read it field by field and assertions check the shape. */
// biome-ignore lint/suspicious/noExplicitAny: response bodies are checked by the assertions that read them
export type JsonBody = any;

export interface Api {
  cookie: string;
  call(method: string, path: string, body?: unknown): Promise<{ status: number; json: JsonBody; headers: Headers }>;
}

export function client(base: string, cookie = ''): Api {
  const api: Api = {
    cookie,
    async call(method, path, body) {
      const headers: Record<string, string> = {};
      if (api.cookie) headers.cookie = api.cookie;
      if (body !== undefined) headers['content-type'] = 'application/json';
      const res = await fetch(`${base}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      let json: JsonBody = text;
      try {
        json = text ? JSON.parse(text) : undefined;
      } catch {
        // not JSON: keep the text
      }
      const setCookie = res.headers.get('set-cookie');
      const session = setCookie && /trove_session=([^;]*)/.exec(setCookie);
      if (session) api.cookie = session[1] ? `trove_session=${session[1]}` : '';
      return { status: res.status, json, headers: res.headers };
    },
  };
  return api;
}

/** Runs setup; the returned client holds the admin's session. */
export async function setUp(base: string): Promise<{ api: Api; dsn: string; projectSlug: string }> {
  const api = client(base);
  const res = await api.call('POST', '/api/0/setup', ADMIN);
  if (res.status !== 201) throw new Error(`setup failed: ${res.status} ${JSON.stringify(res.json)}`);
  return { api, dsn: res.json.dsn, projectSlug: res.json.project_slug };
}

export async function eventually<T>(fn: () => Promise<T | undefined>, what: string, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
