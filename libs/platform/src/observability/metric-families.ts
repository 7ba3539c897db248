/**
 * The metric families the vault exports, by name. The Grafana dashboard
 * (deploy/grafana) and the chart's alert rules (deploy/helm) use these names;
 * the deploy tier checks that every name they use is one of them.
 */
export const METRIC = {
  httpRequestDuration: 'vault_http_request_duration_seconds',
  rpcClientDuration: 'vault_rpc_client_duration_seconds',
  rpcServerDuration: 'vault_rpc_server_duration_seconds',
  eventsPublished: 'vault_events_published_total',
  eventsDelivered: 'vault_events_delivered_total',
  eventsRedelivered: 'vault_events_redelivered_total',
  eventsAcknowledged: 'vault_events_acknowledged_total',
  eventHandlerFailures: 'vault_event_handler_failures_total',
  natsConnected: 'vault_nats_connected',
  natsReconnects: 'vault_nats_reconnects_total',
  natsDisconnects: 'vault_nats_disconnects_total',
  dbPoolConnections: 'vault_db_pool_connections',
  dbPoolWaiting: 'vault_db_pool_waiting_requests',
  dbQueryDuration: 'vault_db_query_duration_seconds',
  readiness: 'vault_readiness',
} as const;

/**
 * How an RPC ended, as both sides count it: answered, refused by the
 * service (a 4xx), failed in it (a 5xx), or not answered at all (no
 * responder, a timeout, a lost connection: the gateway's 503).
 */
export type RpcOutcome = 'ok' | 'refused' | 'failed' | 'unavailable';

export function rpcOutcomeOf(status: number | undefined): RpcOutcome {
  if (status === undefined) return 'ok';
  if (status === 503) return 'unavailable';
  return status >= 500 ? 'failed' : 'refused';
}
