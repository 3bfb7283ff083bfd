import { once } from 'node:events';
import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy in front of a real server (Postgres, Redis), so a test can take the network away and
 * give it back: `cut()` drops every connection through it and refuses new ones (as a server that
 * has gone does), `restore()` lets connections through again. Both sides of a dropped connection
 * are closed, so the server also sees its sessions end.
 */
export interface TcpProxy {
  port: number;
  /** Connections open through the proxy now. */
  readonly open: number;
  cut(): void;
  restore(): void;
  /**
   * Drops the next connection that sends `text` to the server, before the server sees it: a
   * connection lost in the middle of that statement.
   */
  dropOnNext(text: string): void;
  close(): Promise<void>;
}

export async function startTcpProxy(targetPort: number, targetHost = '127.0.0.1'): Promise<TcpProxy> {
  const pairs = new Set<[Socket, Socket]>();
  let cut = false;
  let dropOn: Buffer | undefined;
  const server: Server = createServer((incoming) => {
    if (cut) {
      incoming.destroy();
      return;
    }
    const outgoing = connect(targetPort, targetHost);
    const pair: [Socket, Socket] = [incoming, outgoing];
    pairs.add(pair);
    const drop = () => {
      pairs.delete(pair);
      incoming.destroy();
      outgoing.destroy();
    };
    for (const socket of pair) {
      socket.on('error', drop);
      socket.on('close', drop);
    }
    incoming.on('data', (chunk: Buffer) => {
      if (dropOn && chunk.includes(dropOn)) {
        dropOn = undefined;
        drop();
        return;
      }
      outgoing.write(chunk);
    });
    outgoing.pipe(incoming);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  const cutAll = () => {
    cut = true;
    for (const [a, b] of pairs) {
      a.destroy();
      b.destroy();
    }
    pairs.clear();
  };
  return {
    port,
    get open() {
      return pairs.size;
    },
    cut: cutAll,
    dropOnNext(text) {
      dropOn = Buffer.from(text);
    },
    restore() {
      cut = false;
    },
    async close() {
      cutAll();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
