// First, before the rest of the process is loaded: its heap settings. The rest is imported
// after them: a static import would load (and run the CommonJS packages of) the whole graph first.
// Inside a function, not at the top level: the bundle its image and npm start run is one script
// (scripts/lib/app-bundle.mjs's buildProgram), which has no top-level await.
import '@vault/platform/memory-settings';

/** Resolves once the app is up (libs/platform's compiled-program.ts keeps its code cache after its first answer). */
export const started: Promise<unknown> = (async () => {
  const { AUDIT_MIGRATIONS, AuditModule } = await import('@vault/audit');
  const { loadProcessConfig, migrateService, run, startService } = await import('@vault/host');
  // `main.js migrate` applies the migrations and exits (a deploy job); otherwise the service serves.
  return run(() => {
    const config = loadProcessConfig('audit-svc', process.argv[2]);
    if (process.argv[2] === 'migrate') return migrateService(config, 'audit', AUDIT_MIGRATIONS);
    return startService(config, 'audit', AuditModule.forRoot({ migrate: !config.VAULT_SKIP_MIGRATIONS }));
  });
})();
