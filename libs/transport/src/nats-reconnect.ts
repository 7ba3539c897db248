/**
 * How every NATS connection of a process (the gateway's client, a service's
 * server, the event bus) rides out a broker outage. The client's defaults give
 * up after 10 attempts (about 20 s) and close for good, which left services
 * cut off until restarted; here a process tries for as long as it runs, a
 * second apart plus up to a second of jitter so that replicas do not all
 * reconnect in the same instant. A silent network failure (no FIN, no RST) is
 * noticed by pings within about 30 s instead of the default 4 minutes.
 */
export const NATS_RECONNECT = {
  maxReconnectAttempts: -1,
  reconnectTimeWait: 1000,
  reconnectJitter: 1000,
  pingInterval: 10_000,
  maxPingOut: 2,
} as const;
