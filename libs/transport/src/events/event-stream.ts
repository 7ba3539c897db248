/**
 * The JetStream stream that keeps the vault's events (distributed mode). Its
 * own module, so that naming it does not load the NATS client.
 */
export const EVENT_STREAM = 'VAULT_EVENTS';
