import { ConfigError } from '@vault/platform';

/**
 * Runs a process's start function. A configuration error is printed as its
 * list of variables, without a stack, and exits 1, whether `start` throws
 * before its promise exists (a synchronous check) or rejects later. The
 * promise it returns resolves with what `start` resolved with.
 */
export function run(start: () => unknown): Promise<unknown> {
  return new Promise((resolve) => resolve(start())).catch((error: unknown) => {
    process.stderr.write(startFailure(error));
    process.exit(1);
  });
}

/** What a failed start prints: the list alone for a configuration error, the stack for anything unexpected. */
export function startFailure(error: unknown): string {
  if (error instanceof ConfigError) return `${error.message}\n`;
  return `Vault failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`;
}
