import { unauthorized } from '@trove/service-kit';
import type { FastifyPluginAsync } from 'fastify';
import { sessionUser } from '../../auth/sessions.ts';
import type { AppContext } from '../../context.ts';
import { CLOSE_INTERNAL_ERROR, CLOSE_POLICY_VIOLATION } from '../../realtime/close-codes.ts';
import { errorResponse } from '../../schemas/common.ts';

export const WS_DESCRIPTION =
  'Upgrade with the trove_session cookie. The server sends `{"type":"Ready"}`, then `{"type":"IssueCreated"|"IssueUpdated","issue":{...}}` for every change. Messages from the client are ignored. Close codes: 1001 going away (the server is shutting down: reconnect, another replica may answer), 1008 policy violation (the session ended: sign in again), 1009 a client message over 64 KiB, 1011 internal error (the session could not be checked: reconnect).';

export const wsRoutes: FastifyPluginAsync<AppContext> = async (app, { db, live, config }) => {
  app.get(
    '/api/0/ws',
    {
      websocket: true,
      schema: {
        tags: ['realtime'],
        summary: 'Live issue updates over a WebSocket (cookie authentication)',
        description: WS_DESCRIPTION,
        security: [{ session: [] }],
        response: { 401: errorResponse },
      },
      // Refused before the upgrade, so a client without a session gets a plain 401.
      preValidation: async (request) => {
        const user = await sessionUser(db, request);
        if (!user) throw unauthorized('sign in first: the WebSocket needs a valid trove_session cookie');
        request.user = user;
      },
    },
    (socket, request) => {
      const remove = live.add(socket);
      // A socket outlives its session otherwise: logout or a password change elsewhere must end it too.
      const recheck = setInterval(() => {
        sessionUser(db, request).then(
          (user) => {
            if (!user) socket.close(CLOSE_POLICY_VIOLATION, 'session ended: sign in again');
          },
          (err) => {
            request.log.warn({ err }, 'could not check the session of a live socket');
            socket.close(CLOSE_INTERNAL_ERROR, 'session check failed: reconnect');
          },
        );
      }, config.LIVE_SESSION_CHECK_SECONDS * 1000);
      recheck.unref();
      const end = () => {
        clearInterval(recheck);
        remove();
      };
      socket.on('close', end);
      socket.on('error', end);
      socket.send(JSON.stringify({ type: 'Ready' }));
    },
  );
};
