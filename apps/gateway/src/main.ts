// First, before the rest of the process is loaded: its heap settings. The rest is imported
// after them: a static import would load (and run the CommonJS packages of) the whole graph first.
import '@vault/platform/memory-settings';

const { loadProcessConfig, run, startGateway } = await import('@vault/host');

run(() => startGateway(loadProcessConfig('gateway')));
