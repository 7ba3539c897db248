/** The owner each vault is started with; a different one per mode proves each project talks to its own stack. */
export interface OwnerAccount {
  name: string;
  username: string;
  password: string;
}

export type ModeName = 'embedded' | 'distributed';

export interface Mode {
  name: ModeName;
  /** The port of the vault (embedded) or of the gateway (distributed; the services use +101 and +102). */
  port: number;
  owner: OwnerAccount;
}

/**
 * Added to every port of the run's vaults (shared and private), so that two
 * runs on one machine (say, CI's and a developer's) do not meet:
 * VAULT_E2E_PORT_OFFSET=100 moves 3301 to 3401.
 */
export const PORT_OFFSET = Number(process.env.VAULT_E2E_PORT_OFFSET ?? 0);

export const MODES: Record<ModeName, Mode> = {
  embedded: {
    name: 'embedded',
    port: 3301 + PORT_OFFSET,
    owner: { name: 'Diana Prince', username: 'diana', password: 'Themyscira-e2e-7!' },
  },
  distributed: {
    name: 'distributed',
    port: 3302 + PORT_OFFSET,
    owner: { name: 'Bruce Wayne', username: 'bruce', password: 'Gotham-e2e-9?' },
  },
};

export function baseURL(mode: Mode): string {
  return `http://127.0.0.1:${mode.port}`;
}

/**
 * The modes this run needs: those named with --project on the command line
 * (exact names), otherwise both. Used so `--project embedded` does not start
 * the distributed stack.
 */
export function selectedModes(argv: readonly string[] = process.argv): ModeName[] {
  const named: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg.startsWith('--project=')) named.push(arg.slice('--project='.length));
    else if (arg === '--project') {
      while (i + 1 < argv.length && !argv[i + 1].startsWith('-')) named.push(argv[++i]);
    }
  }
  const all = Object.keys(MODES) as ModeName[];
  if (named.length === 0 || named.some((n) => !all.includes(n as ModeName))) return all;
  return all.filter((m) => named.includes(m));
}
