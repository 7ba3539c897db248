import type { NatsConnection } from '@nats-io/transport-node';
import type { ReadinessCheck } from '@vault/platform';

/**
 * Ready while this NATS connection is up and the broker answers a ping.
 * `rtt()` refuses at once while the connection is disconnected or closed,
 * and a broker that stalls misses the health check's deadline; a status
 * remembered from events could lag behind either.
 */
export function natsReadiness(name: string, connection: () => NatsConnection | Promise<NatsConnection>): ReadinessCheck {
  return {
    name,
    check: async () => {
      await (await connection()).rtt();
    },
  };
}
