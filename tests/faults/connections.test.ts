/**
 * Connection limits of an HTTP service (errors-api, as its own process): connections over
 * MAX_CONNECTIONS are closed as they arrive, a client that never finishes its headers is cut off
 * after HEADERS_TIMEOUT_MS, an idle keep-alive connection after KEEP_ALIVE_TIMEOUT_MS, and then
 * the service answers as before.
 */
import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningApp, startApp } from '../support/processes.ts';

/** Opens a socket and resolves, once it closes, with how long after opening that was. */
async function openSocket(port: number, send?: string): Promise<{ socket: Socket; closed: Promise<number> }> {
  const socket = connect(port, '127.0.0.1');
  const opened = performance.now();
  socket.on('error', () => {});
  // Read what the server sends (a 408), or the socket never sees the server's end.
  socket.resume();
  const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(performance.now() - opened)));
  await once(socket, 'connect');
  if (send) socket.write(send);
  return { socket, closed };
}

describe('an HTTP service with connection limits', () => {
  let app: RunningApp;

  beforeAll(async () => {
    app = await startApp('errors-api', {
      DATA_DIR: 'memory://',
      MAX_CONNECTIONS: '20',
      HEADERS_TIMEOUT_MS: '1000',
      KEEP_ALIVE_TIMEOUT_MS: '1000',
    });
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('closes connections over the cap at once, slow and idle ones after their timeouts, and serves on', async () => {
    // Forty clients that connect and send half a request line, as a slowloris attack does.
    const sockets = await Promise.all(Array.from({ length: 40 }, () => openSocket(app.port, 'GET /livez HT')));
    const closedAfter = await Promise.all(sockets.map((s) => s.closed));
    const atOnce = closedAfter.filter((ms) => ms < 500).length;
    const slowest = Math.max(...closedAfter);
    expect(atOnce).toBeGreaterThanOrEqual(20);
    // The 20 it held: cut off 1 s after connecting, checked every second.
    expect(slowest).toBeGreaterThan(900);
    expect(slowest).toBeLessThan(3_500);

    // An idle keep-alive connection is closed by the server after KEEP_ALIVE_TIMEOUT_MS (a raw
    // socket: Node's own client closes idle sockets a second before the server's stated timeout).
    const keptAlive = await openSocket(app.port, `GET /livez HTTP/1.1\r\nHost: 127.0.0.1:${app.port}\r\n\r\n`);
    const answeredAt = await new Promise<number>((resolve) =>
      keptAlive.socket.once('data', () => resolve(performance.now())),
    );
    await keptAlive.closed;
    const idleMs = performance.now() - answeredAt;
    expect(idleMs).toBeGreaterThan(800);
    expect(idleMs).toBeLessThan(3_000);
    expect((await fetch(`${app.url}/readyz`)).status).toBe(200);
    console.log(
      `${atOnce} of 40 connections refused at once, the rest cut off within ${Math.round(slowest)} ms; idle keep-alive closed after ${Math.round(idleMs)} ms`,
    );
  });
});
