/**
 * What the service kit costs per request: the same JSON route on a bare Fastify server and on one
 * with the kit (request ids, error handler, Prometheus metrics by route), loaded in turns from
 * loopback in one run. Prints requests/s and latency per round, then medians and the ratio.
 *   npm run bench:kit [-- --seconds 5 --rounds 3 --connections 32]
 */
import { parseArgs } from 'node:util';
import { createLogger, createServer, serviceKit } from '@trove/service-kit';
import { median } from '@trove/stats';
import autocannon from 'autocannon';
import Fastify, { type FastifyInstance } from 'fastify';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '32' },
  },
});
const seconds = Number(values.seconds);
const rounds = Number(values.rounds);
const connections = Number(values.connections);

const route = async () => ({ id: 42, name: 'thing', tags: ['a', 'b'] });

async function bare(): Promise<FastifyInstance> {
  const app = Fastify({ logger: false });
  app.get('/things/:id', route);
  return app;
}

async function withKit(): Promise<FastifyInstance> {
  // Logging is off in both so that the comparison is the kit itself, not log I/O.
  const app = createServer({ logger: createLogger({ service: 'bench', level: 'silent', format: 'json' }) });
  await app.register(serviceKit, { service: 'bench' });
  app.get('/things/:id', route);
  return app;
}

async function load(app: FastifyInstance) {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as { port: number };
  const result = await autocannon({ url: `http://127.0.0.1:${port}/things/7`, connections, duration: seconds });
  await app.close();
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
}

const results: Record<'bare' | 'kit', { rps: number; p50: number; p99: number; errors: number }[]> = {
  bare: [],
  kit: [],
};
console.log(`service kit overhead: ${rounds} rounds x ${seconds}s, ${connections} connections, loopback`);
for (let round = 1; round <= rounds; round++) {
  // Alternate the order so that neither side always runs on a warmer or cooler machine.
  const order: ('bare' | 'kit')[] = round % 2 ? ['bare', 'kit'] : ['kit', 'bare'];
  for (const name of order) {
    const r = await load(name === 'bare' ? await bare() : await withKit());
    results[name].push(r);
    console.log(
      `round ${round} ${name.padEnd(4)} ${r.rps.toFixed(0).padStart(7)} req/s  p50 ${r.p50} ms  p99 ${r.p99} ms  errors ${r.errors}`,
    );
  }
}
const bareRps = median(results.bare.map((r) => r.rps));
const kitRps = median(results.kit.map((r) => r.rps));
console.log(
  `\nmedian req/s: bare ${bareRps.toFixed(0)}, with kit ${kitRps.toFixed(0)}, kit/bare ${(kitRps / bareRps).toFixed(2)}`,
);
console.log(
  `median p99 ms: bare ${median(results.bare.map((r) => r.p99))}, with kit ${median(results.kit.map((r) => r.p99))}`,
);
