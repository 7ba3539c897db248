import { ConfigError } from '@vault/platform';

/** Runs a process's start function; a configuration error is printed as a list, without a stack. */
export function run(start: () => Promise<unknown>) {
  start().catch((error: unknown) => {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
    } else {
      process.stderr.write(`Vault failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    }
    process.exit(1);
  });
}
