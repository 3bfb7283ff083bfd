import { unauthorized } from '@trove/service-kit';
import type { FastifyPluginAsync } from 'fastify';
import { sessionUser } from '../../auth/sessions.ts';
import type { AppContext } from '../../context.ts';
import { errorResponse } from '../../schemas/common.ts';

export const wsRoutes: FastifyPluginAsync<AppContext> = async (app, { db, live }) => {
  app.get(
    '/api/0/ws',
    {
      websocket: true,
      schema: {
        tags: ['realtime'],
        summary: 'Live issue updates over a WebSocket (cookie authentication)',
        description:
          'Upgrade with the trove_session cookie. The server sends `{"type":"Ready"}`, then `{"type":"IssueCreated"|"IssueUpdated","issue":{...}}` for every change. Messages from the client are ignored.',
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
    (socket) => {
      const remove = live.add(socket);
      socket.on('close', remove);
      socket.on('error', remove);
      socket.send(JSON.stringify({ type: 'Ready' }));
    },
  );
};
