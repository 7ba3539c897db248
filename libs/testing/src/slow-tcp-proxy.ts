import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';

/** How a slow proxy slows the way to its server. */
export interface SlowTcpProxyOptions {
  /** Read at each new connection: how long it waits before reaching the server (a busy node). */
  connectDelayMs?: () => number;
  /** How long each chunk takes to cross, either way, in order (a slow network: every round trip costs twice this). */
  chunkDelayMs?: number;
}

/**
 * A TCP proxy on 127.0.0.1 to `target` (a server's URL: host and port kept,
 * the rest handed back as is): a busy node, a slow network.
 * `cut(true)` makes the server unreachable: the connections open are reset
 * and new ones are closed at once, until `cut(false)`.
 */
export async function slowTcpProxy(target: URL, defaultPort: number, options: SlowTcpProxyOptions) {
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
        relay(client, upstream, options.chunkDelayMs ?? 0);
        relay(upstream, client, options.chunkDelayMs ?? 0);
        client.resume();
      });
      sockets.add(upstream);
      upstream.on('close', () => sockets.delete(upstream));
      upstream.on('error', () => client.destroy());
      client.on('error', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
      client.on('close', () => upstream.destroy());
    }, options.connectDelayMs?.() ?? 0);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = new URL(target);
  url.hostname = '127.0.0.1';
  url.port = String((server.address() as AddressInfo).port);
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

/** Copies `from` to `to`, each chunk after `delayMs` (timers of one delay fire in the order they were set, so the bytes stay in order). */
function relay(from: Socket, to: Socket, delayMs: number) {
  if (delayMs === 0) {
    from.pipe(to);
    return;
  }
  from.on('data', (chunk) => {
    setTimeout(() => {
      if (!to.destroyed) to.write(chunk);
    }, delayMs);
  });
}
