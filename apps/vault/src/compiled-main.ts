// The embedded vault as `npm start`, the image and the launcher run it
// (bundled by bundle.mjs as dist/bundle/main.js): the vault's bundle
// (dist/bundle/vault.js) run with V8's code cache, so that a restart does
// not compile again the code every start runs (docs/adr/0019).
// The heap settings first: V8 accepts a cache only under the flags it was made with.
import '@vault/platform/memory-settings';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { fileURLToPath } from 'node:url';
import { runCompiled } from './compiled-code.js';

/** A start that answers no request within this long after it is up keeps the code of its start alone. */
const FIRST_ANSWER_WAIT_MS = 10_000;

const vault = runCompiled(fileURLToPath(new URL('./bundle/vault.js', import.meta.url)));
if (!vault.fromCache) {
  // What the next start reads: the code of this start and of its first answer (every launcher's first request is
  // its readiness probe). Kept at the start alone, the first answer of every start compiled its path afresh: 40 ms.
  let kept = false;
  const keep = () => {
    if (kept) return;
    kept = true;
    unsubscribe('http.server.response.finish', keep);
    setImmediate(() => vault.keepCache());
  };
  void (vault.exports.started as Promise<unknown>).then(() => {
    subscribe('http.server.response.finish', keep);
    setTimeout(keep, FIRST_ANSWER_WAIT_MS).unref();
  });
}
