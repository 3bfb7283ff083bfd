// `helm test <release>`: run in a pod of the migrate image (Node, no shell) against the release's
// Services. Every component answers /readyz; memory-api remembers and recalls (then forgets) a
// memory; vectorize-api traces a small PNG to SVG; errors-api takes an event through its Sentry
// store endpoint when a DSN is given (tests.errorsApiDsn), and otherwise only shows that the endpoint
// refuses an unknown key. Exits 1 naming each failed step.
const env = process.env;
const ready = JSON.parse(env.TROVE_READYZ ?? '{}');
const failures = [];

async function step(name, fn) {
  try {
    const detail = await fn();
    console.log(`ok   ${name}${detail ? `: ${detail}` : ''}`);
  } catch (error) {
    failures.push(name);
    console.log(`FAIL ${name}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

async function call(url, init = {}) {
  const res = await fetch(url, { ...init, signal: AbortSignal.timeout(30_000) });
  const text = await res.text();
  if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${url}: ${res.status} ${text.slice(0, 200)}`);
  return text;
}

const json = (body, token) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
  body: JSON.stringify(body),
});

for (const [component, url] of Object.entries(ready)) {
  await step(`${component} ready`, () => call(`${url}/readyz`).then(() => url));
}

if (env.MEMORY_API_URL) {
  const token = (env.AUTH_TOKENS ?? '').split(',')[0]?.trim();
  await step('memory-api remember and recall', async () => {
    const namespace = `helm-test-${Date.now()}`;
    const content = 'The helm test checks that a stored memory can be recalled';
    const stored = JSON.parse(await call(`${env.MEMORY_API_URL}/remember`, json({ content, namespace }, token)));
    const found = await call(
      `${env.MEMORY_API_URL}/recall`,
      json({ query: 'stored memory recalled', namespace }, token),
    );
    await call(`${env.MEMORY_API_URL}/forget?id=${stored.id}`, {
      method: 'DELETE',
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
    if (!found.includes(stored.id)) throw new Error(`recall did not return memory ${stored.id}`);
    return `memory ${stored.id}`;
  });
}

if (env.VECTORIZE_API_URL) {
  await step('vectorize-api trace', async () => {
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAYAAAAf8/9hAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAIElEQVQ4jWP4TyFgGIYGXBBQwItHDVAYEWFAKhgGBgAAwKt87tqG1qgAAAAASUVORK5CYII=',
      'base64',
    );
    const form = new FormData();
    form.append('file', new Blob([png], { type: 'image/png' }), 'helm-test.png');
    const svg = await call(`${env.VECTORIZE_API_URL}/v1/vectorize`, { method: 'POST', body: form });
    if (!/<svg[\s>]/.test(svg) || !svg.includes('<path ')) throw new Error('the answer is not an SVG with paths');
    return `${svg.length} bytes of SVG`;
  });
}

if (env.ERRORS_API_URL) {
  await step('errors-api ingest', async () => {
    const dsn = env.ERRORS_API_DSN ? new URL(env.ERRORS_API_DSN) : undefined;
    const project = dsn ? dsn.pathname.replace(/^\/+/, '') : '1';
    const key = dsn ? dsn.username : 'helm-test-unknown-key';
    const res = await fetch(`${env.ERRORS_API_URL}/api/${project}/store/`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-sentry-auth': `Sentry sentry_version=7, sentry_client=trove-helm-test/1.0, sentry_key=${key}`,
      },
      body: JSON.stringify({ message: 'helm test event', level: 'info', platform: 'javascript' }),
      signal: AbortSignal.timeout(30_000),
    });
    if (dsn && res.status !== 200) throw new Error(`store answered ${res.status}: ${await res.text()}`);
    if (!dsn && (res.status < 400 || res.status >= 500)) throw new Error(`an unknown key got ${res.status}`);
    return dsn ? 'event stored' : `no DSN given (tests.errorsApiDsn): an unknown key is refused with ${res.status}`;
  });
}

if (failures.length > 0) {
  console.log(`${failures.length} step(s) failed: ${failures.join(', ')}`);
  process.exit(1);
}
console.log('every step passed');
