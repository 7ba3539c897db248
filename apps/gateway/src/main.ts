// First, before the rest of the process is loaded: its heap settings. The rest is imported
// after them: a static import would load (and run the CommonJS packages of) the whole graph first.
// Inside a function, not at the top level: the bundle its image and npm start run is one script
// (scripts/lib/app-bundle.mjs's buildProgram), which has no top-level await.
import '@vault/platform/memory-settings';

/** Resolves once the app is up (libs/platform's compiled-program.ts keeps its code cache after its first answer). */
export const started: Promise<unknown> = (async () => {
  const { loadProcessConfig, run, startGateway } = await import('@vault/host');
  return run(() => startGateway(loadProcessConfig('gateway')));
})();
