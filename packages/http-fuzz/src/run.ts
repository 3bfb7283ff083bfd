import type { CatalogRoute } from '@trove/service-kit';
import fc from 'fast-check';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { readFuzzSettings } from './config.ts';
import { type FuzzRequest, requestsFor } from './requests.ts';

/** How long runs are, from FUZZ_RUNS and the other FUZZ_ variables (see config.ts). */
export const fuzzSettings = readFuzzSettings();

export interface FuzzTarget {
  app: FastifyInstance;
  /** Strings worth trying where a string goes: ids, slugs and names that exist. */
  known: string[];
  /** Headers every request carries (a session, a token). */
  headers?: () => Record<string, string>;
  /** A cheap summary of everything stored; must not change when a request is refused. */
  fingerprint?: () => Promise<string>;
  /** Routes that speak a protocol of their own (JSON-RPC, Sentry's): extra headers, and their error shape. */
  protocols?: Record<string, { headers?: Record<string, string>; isError: (body: unknown) => boolean }>;
  /** Called after each request, e.g. to sign in again after a fuzzed logout. */
  afterEach?: (request: FuzzRequest, status: number) => Promise<void>;
}

/** The routes a client can call: everything in the app's route catalog but the hidden docs assets. */
export function publicRoutes(
  app: FastifyInstance,
  skip: (route: CatalogRoute) => boolean = () => false,
): CatalogRoute[] {
  return app.routeCatalog.filter((r) => !r.schema.hide && r.method !== 'OPTIONS' && !skip(r));
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** What is wrong with an answer to a request, or undefined when it is acceptable. */
export function judge(res: LightMyRequestResponse, isError = isErrorBody): string | undefined {
  if (res.statusCode >= 500) return `answered ${res.statusCode}: ${res.body.slice(0, 300)}`;
  if (res.statusCode >= 400 && isError === htmlPage) {
    const type = String(res.headers['content-type'] ?? '');
    if (!type.startsWith('text/html') && !isErrorBody(safeJson(res)))
      return `answered ${res.statusCode} with neither an HTML page nor the error shape: ${res.body.slice(0, 200)}`;
  } else if (res.statusCode >= 400) {
    let body: unknown;
    try {
      body = res.json();
    } catch {
      return `answered ${res.statusCode} with a body that is not JSON: ${res.body.slice(0, 200)}`;
    }
    if (!isError(body)) return `answered ${res.statusCode} without the spec's error shape: ${res.body.slice(0, 200)}`;
  }
  return undefined;
}

function safeJson(res: LightMyRequestResponse): unknown {
  try {
    return res.json();
  } catch {
    return undefined;
  }
}

/** For routes that serve pages to browsers: a refusal is an HTML page (or the JSON error shape). */
export const htmlPage = (_body: unknown) => true;

/** The one error shape of the three specs: `{"error": "message"}` and nothing else. */
export function isErrorBody(body: unknown): boolean {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return false;
  const error = (body as { error?: unknown }).error;
  return typeof error === 'string' && error !== '' && Object.keys(body).length === 1;
}

const describe = (r: FuzzRequest) => `${r.method} ${r.url.slice(0, 300)} body ${r.body}`;

/**
 * Fuzzes every route: the property is no 5xx, no hang, the error shape on 4xx and nothing
 * stored changed by a refused request. A failure throws with fast-check's seed and path, and the
 * command that replays it.
 */
export async function fuzzRoutes(
  target: FuzzTarget,
  routes: CatalogRoute[],
  runs = fuzzSettings.runsPerRoute,
): Promise<void> {
  const known = fc.constantFrom(...(target.known.length > 0 ? target.known : ['x']));
  for (const route of routes) {
    const protocol = target.protocols?.[`${route.method} ${route.url}`];
    const property = fc.asyncProperty(requestsFor(route, { known }), async (request) => {
      const before = await target.fingerprint?.();
      const res = await withTimeout(
        target.app.inject({
          method: request.method as 'GET',
          url: request.url,
          headers: { ...target.headers?.(), ...protocol?.headers, ...request.headers },
          ...(request.payload === undefined ? {} : { payload: request.payload }),
        }),
        fuzzSettings.timeoutMs,
        describe(request),
      );
      const problem = judge(res, protocol?.isError);
      if (problem) throw new Error(`${describe(request)}\n  ${problem}`);
      if (res.statusCode >= 400 && before !== undefined) {
        const after = await target.fingerprint?.();
        if (after !== before)
          throw new Error(`${describe(request)}\n  answered ${res.statusCode} but changed stored data`);
      }
      await target.afterEach?.(request, res.statusCode);
    });
    await assertReplayable(property, runs, `${route.method} ${route.url}`);
  }
}

/** fc.assert with the settings above, and on failure a line saying how to replay it. */
export async function assertReplayable<T>(property: fc.IAsyncProperty<T>, runs: number, what: string): Promise<void> {
  const result = await fc.check(property, {
    numRuns: runs,
    ...(fuzzSettings.seed === undefined ? {} : { seed: fuzzSettings.seed }),
    ...(fuzzSettings.path === undefined ? {} : { path: fuzzSettings.path }),
  });
  if (!result.failed) return;
  const replay = `FUZZ_SEED=${result.seed} FUZZ_PATH=${result.counterexamplePath ?? ''} FUZZ_RUNS=${runs}`;
  const cause = result.errorInstance instanceof Error ? result.errorInstance.message : String(result.errorInstance);
  const message = `fuzz: ${what} failed after ${result.numRuns} runs (shrunk ${result.numShrinks} times)\n  ${cause}\n  replay: ${replay} npx vitest run <this file>`;
  console.error(message);
  throw new Error(message);
}
