import { defaultStackParser, linkedErrorsIntegration, makeNodeTransport, NodeClient, Scope } from '@sentry/node';
import { onTestFinished } from 'vitest';
import { getCurrentTest } from 'vitest/suite';

export interface SdkResponse {
  eventId?: string;
  statusCode?: number;
}

/**
 * A real @sentry/node client bound to one DSN, with its own scope, so a test can hold several
 * (one per project) without the global init. Every transport answer is recorded.
 *
 * A client listens for the process's 'beforeExit' until it is closed, and test files share their
 * worker's process (vitest.config.ts): one made inside a test is closed when the test ends; one
 * made in a hook is closed by its caller (`close`).
 */
export function sentryClient(dsn: string) {
  const responses: SdkResponse[] = [];
  const client = new NodeClient({
    dsn,
    stackParser: defaultStackParser,
    integrations: [linkedErrorsIntegration()],
    transport: (options) => {
      const transport = makeNodeTransport(options);
      return {
        ...transport,
        async send(envelope) {
          const header = envelope[0] as { event_id?: string };
          const result = await transport.send(envelope);
          responses.push({ eventId: header.event_id, statusCode: result.statusCode });
          return result;
        },
      };
    },
    sendClientReports: false,
  });
  const scope = new Scope();
  scope.setClient(client);
  client.init();
  const close = async () => {
    await client.close(10_000);
  };
  if (getCurrentTest()) onTestFinished(close);
  return { client, scope, responses, flush: () => client.flush(10_000), close };
}
