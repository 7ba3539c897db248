export * from './rpc-failure.js';
export * from './handles.decorator.js';
export * from './in-process.transport.js';
export * from './transport-options.js';
export * from './rpc-client.js';
export * from './answer-of.js';
export * from './transport.module.js';
export * from './transport-server.module.js';
export * from './events/event-bus.js';
export * from './events/event-envelope.js';
export * from './events/on-event.decorator.js';
export * from './events/events.module.js';
// Not the JetStream bus itself: only the distributed mode loads it (and the NATS client), when it makes one.
export { EVENT_STREAM } from './events/event-stream.js';
