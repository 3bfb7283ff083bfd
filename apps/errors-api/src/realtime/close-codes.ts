import type { FastifyInstance } from 'fastify';

/**
 * WebSocket close codes (RFC 6455, 7.4.1) this service sends, so a client can tell a shutdown
 * (reconnect to another replica) from a refusal (sign in again) and a fault.
 */
export const CLOSE_GOING_AWAY = 1001;
export const CLOSE_POLICY_VIOLATION = 1008;
export const CLOSE_INTERNAL_ERROR = 1011;

/**
 * The websocket plugin's preClose, replacing its default (which closes sockets without a code, so
 * clients saw 1005 "no status"): every open socket is told the server is going away.
 */
export function closeGoingAway(this: FastifyInstance, done: () => void): void {
  const server = this.websocketServer;
  for (const client of server.clients) client.close(CLOSE_GOING_AWAY, 'server shutting down');
  // Upgrades that still arrive are refused by the closed server (503) until the listener closes.
  server.close();
  done();
}
