import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { JsonBody } from './harness.ts';

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: JsonBody;
}

/**
 * A real HTTP server on loopback that records every call. `answers` are the statuses given to
 * the first calls, in order (0 means "never answer"); after them it answers 200.
 */
export async function startReceiver(answers: number[] = []) {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk) => {
      text += chunk;
    });
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body: JSON.parse(text) });
      const status = answers.shift() ?? 200;
      if (status === 0) return; // hang: the sender's timeout must give up
      res.writeHead(status).end();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((done) => server.close(() => done()));
    },
  };
}
