// A vault of a test file's own, started fresh in the project's mode for the
// file's worker and removed after it: for tests that fill a vault with data
// or destroy it, so that the shared vaults' tests (some of which start from an
// empty vault) never see it.
import { test as vaultTest } from './fixtures.ts';
import { PORT_OFFSET, type Mode, type ModeName, type OwnerAccount } from './modes.ts';
import { startDistributed, startEmbedded } from './stacks.ts';

/**
 * A `test` whose pages talk to a private vault of `owner` (its tests sign in
 * as that owner, not the project's `owner` option), on `ports`
 * (one per mode; the distributed services use +101 to +105). The shared
 * vaults use 3301 and 3302; VAULT_E2E_PORT_OFFSET moves them all.
 */
export function withPrivateVault(owner: OwnerAccount, ports: Record<ModeName, number>) {
  return vaultTest.extend<Record<never, never>, { privateVault: { baseURL: string } }>({
    privateVault: [
      // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this first pattern; this one has none.
      async ({}, use, workerInfo) => {
        const name: ModeName = workerInfo.project.name === 'distributed' ? 'distributed' : 'embedded';
        const mode: Mode = { name, port: ports[name] + PORT_OFFSET, owner };
        const stack = name === 'embedded' ? await startEmbedded(mode) : await startDistributed(mode);
        try {
          await use({ baseURL: stack.baseURL });
        } finally {
          await stack.stop();
        }
      },
      { scope: 'worker', timeout: 240_000 },
    ],
    baseURL: async ({ privateVault }, use) => use(privateVault.baseURL),
  });
}
