import type { NatsConnection } from '@nats-io/transport-node';
import type { VaultMetrics } from '@vault/platform';

/** Which of a process's NATS connections: the one RPCs travel on, or the event bus's. */
export type NatsConnectionRole = 'rpc' | 'events';

/**
 * Follows one NATS connection for vault_nats_connected and its counts of
 * losses and reconnections. The client's own status events say it: a
 * disconnect, then (it retries for as long as the process runs) a reconnect.
 */
export function watchNatsConnection(connection: NatsConnection, metrics: VaultMetrics | undefined, role: NatsConnectionRole): void {
  if (!metrics) return;
  const labels = { connection: role };
  metrics.natsConnected.set(labels, 1);
  // Zero until it happens, so that a rate over them exists from the start.
  metrics.natsDisconnects.inc(labels, 0);
  metrics.natsReconnects.inc(labels, 0);
  void (async () => {
    for await (const status of connection.status()) {
      if (status.type === 'disconnect') {
        metrics.natsConnected.set(labels, 0);
        metrics.natsDisconnects.inc(labels);
      } else if (status.type === 'reconnect') {
        metrics.natsConnected.set(labels, 1);
        metrics.natsReconnects.inc(labels);
      }
    }
  })().catch(() => undefined);
  void connection.closed().then(() => metrics.natsConnected.set(labels, 0));
}
