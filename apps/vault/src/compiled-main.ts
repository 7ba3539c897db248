// The embedded vault as `npm start`, the image and the launcher run it
// (bundled by bundle.mjs as dist/bundle/main.js): the vault's bundle
// (dist/bundle/vault.js) run with V8's code cache, so that a restart does
// not compile again the code every start runs (docs/adr/0019).
// The heap settings first: V8 accepts a cache only under the flags it was made with.
import '@vault/platform/memory-settings';
import { fileURLToPath } from 'node:url';
import { runCompiled } from './compiled-code.js';

const vault = runCompiled(fileURLToPath(new URL('./bundle/vault.js', import.meta.url)));
// Once the vault answers, its start's code is compiled: that is what the next start reads.
void (vault.exports.started as Promise<unknown>).then(() => setImmediate(() => vault.keepCache()));
