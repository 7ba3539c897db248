// The tooling's one way to wait for something to answer: a server's port, a
// health URL, a database that accepts connections. The scripts, the bench,
// the test servers, the end-to-end stacks and the cluster tier all poll
// through it, so each failure says what was awaited, for how long, and why
// the last try failed.

/**
 * Polls `check` until it returns something other than false or undefined, and
 * returns that. A check that throws counts as "not yet" (its error is the
 * reason given if time runs out). `stop()`, asked before each try, ends the
 * wait at once with the reason it gives (a process that has exited).
 * @template T
 * @param {string} what what is awaited, as the error names it: "http://127.0.0.1:3000/health/ready"
 * @param {() => T | Promise<T>} check
 * @param {{ timeoutMs?: number, intervalMs?: number, stop?: () => string | undefined }} [options]
 * @returns {Promise<Exclude<T, false | undefined>>}
 */
export async function waitUntil(what, check, { timeoutMs = 30_000, intervalMs = 100, stop } = {}) {
  const deadline = performance.now() + timeoutMs;
  let reason = 'it never answered';
  for (;;) {
    const stopped = stop?.();
    if (stopped) throw new Error(`${stopped} before ${what}`);
    try {
      const result = await check();
      if (result !== false && result !== undefined) return /** @type {Exclude<T, false | undefined>} */ (result);
    } catch (error) {
      reason = /** @type {Error} */ (error)?.message ?? String(error);
    }
    if (performance.now() >= deadline) throw new Error(`Timed out after ${Math.round(timeoutMs / 1000)} s waiting for ${what}: ${reason}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** A check for waitUntil: `url` answers 200 within two seconds. @param {string} url */
export async function answers200(url) {
  const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
  return true;
}
