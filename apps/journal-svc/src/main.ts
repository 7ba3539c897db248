// First, before the rest of the process is loaded: its heap settings. The rest is imported
// after them: a static import would load (and run the CommonJS packages of) the whole graph first.
// Inside a function, not at the top level: the bundle its image and npm start run is one script
// (scripts/lib/app-bundle.mjs's buildProgram), which has no top-level await.
import '@vault/platform/memory-settings';

const REWRAPPED = {
  rewrapped: "The journal data key is now wrapped by VAULT_NEW_MASTER_KEY: make it journal-svc's VAULT_MASTER_KEY and restart journal-svc.",
  'already-rewrapped': 'The journal data key was already wrapped by VAULT_NEW_MASTER_KEY: nothing changed.',
  'no-data-key': 'There is no journal data key yet (a new or erased vault): nothing to rotate.',
};

/** Resolves once the app is up (libs/platform's compiled-program.ts keeps its code cache after its first answer). */
export const started: Promise<unknown> = (async () => {
  const { loadProcessConfig, migrateService, requireMasterKey, requireNewMasterKey, run, startService, withServiceConnection } = await import('@vault/host');
  const { JOURNAL_MIGRATIONS, JournalModule, parseMasterKey, rewrapDataKey } = await import('@vault/journal');
  // `main.js migrate` applies the migrations and exits (a deploy job, no master key needed);
  // `main.js rotate-master-key` re-wraps the data key (docs/deploy.md); otherwise the service serves.
  return run(async () => {
    const config = loadProcessConfig('journal-svc', process.argv[2]);
    if (process.argv[2] === 'migrate') return migrateService(config, 'journal', JOURNAL_MIGRATIONS);
    const masterKey = parseMasterKey(requireMasterKey(config));
    if (process.argv[2] === 'rotate-master-key') {
      const next = parseMasterKey(requireNewMasterKey(config));
      const outcome = await withServiceConnection(config, 'journal', (connection) => rewrapDataKey(connection, masterKey, next));
      process.stdout.write(`${REWRAPPED[outcome]}\n`);
      return;
    }
    return startService(config, 'journal', JournalModule.forRoot({ migrate: !config.VAULT_SKIP_MIGRATIONS, masterKey }));
  });
})();
