import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { runCompiled } from './compiled-code.js';

/** A start that answers no request within this long after it is up keeps the code of its start alone. */
const FIRST_ANSWER_WAIT_MS = 10_000;

/**
 * Starts an app's program, the one script its bundle is (every app's
 * `dist/bundle/main.js` calls this, scripts/lib/app-bundle.mjs), with V8's
 * code cache beside it (docs/adr/0019, 0024). The caller has set its V8
 * flags already: V8 takes a cache only under the flags it was made with.
 *
 * Without a cache it could take, the program keeps one for the next start
 * once it has answered its first HTTP request (every launcher's first is a
 * readiness probe), or 10 s after it is up without one: the code of its
 * start and of that answer. Kept at the start alone, the first answer of
 * every start compiled its path afresh: 40 ms of the embedded vault's.
 * "Up" is the program's `started` export, a promise, when it has one.
 */
export function startProgram(program: string): void {
  const compiled = runCompiled(program);
  if (compiled.fromCache) return;
  let kept = false;
  const keep = () => {
    if (kept) return;
    kept = true;
    unsubscribe('http.server.response.finish', keep);
    setImmediate(() => compiled.keepCache());
  };
  void Promise.resolve(compiled.exports.started).then(() => {
    subscribe('http.server.response.finish', keep);
    setTimeout(keep, FIRST_ANSWER_WAIT_MS).unref();
  });
}
