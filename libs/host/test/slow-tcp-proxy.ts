import { connect, createServer, type Server, type Socket } from 'node:net';
import { freePort } from './private-nats.js';

/**
 * A TCP proxy on 127.0.0.1 to `target` (a server's URL: host and port kept,
 * the rest handed back as is) whose new connections reach the server only
 * after `delayMs`: a busy node, a slow network. `delayMs` is read at each
 * new connection, so a test can slow it down once something has connected.
 * `cut(true)` makes the server unreachable: the connections open are reset
 * and new ones are closed at once, until `cut(false)`.
 */
export async function slowTcpProxy(target: URL, defaultPort: number, delayMs: () => number) {
  const sockets = new Set<Socket>();
  let unreachable = false;
  const server: Server = createServer((client) => {
    if (unreachable) {
      client.resetAndDestroy();
      return;
    }
    client.pause();
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    setTimeout(() => {
      const upstream = connect(Number(target.port || defaultPort), target.hostname, () => {
        client.pipe(upstream);
        upstream.pipe(client);
        client.resume();
      });
      sockets.add(upstream);
      upstream.on('close', () => sockets.delete(upstream));
      upstream.on('error', () => client.destroy());
      client.on('error', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
      client.on('close', () => upstream.destroy());
    }, delayMs());
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const url = new URL(target);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  return {
    url: url.toString(),
    cut: (cut: boolean) => {
      unreachable = cut;
      if (cut) for (const socket of sockets) socket.resetAndDestroy();
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
