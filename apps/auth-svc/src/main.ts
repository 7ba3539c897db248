// First, before the rest of the process is loaded: its heap settings. The rest is imported
// after them: a static import would load (and run the CommonJS packages of) the whole graph first.
// Inside a function, not at the top level: the bundle its image and npm start run is one script
// (scripts/lib/app-bundle.mjs's buildProgram), which has no top-level await.
import '@vault/platform/memory-settings';

/** Resolves once the app is up (libs/platform's compiled-program.ts keeps its code cache after its first answer). */
export const started: Promise<unknown> = (async () => {
  const { AUTH_MIGRATIONS, AuthModule, resetSecondFactorAt, secondFactorResetReport } = await import('@vault/auth');
  const { authOptions, databaseUrlFor, loadProcessConfig, migrateService, run, startService } = await import('@vault/host');
  // `main.js migrate` applies the migrations and exits (a deploy job); `main.js reset-second-factor --yes`
  // removes the owner's every second factor (the operator's way back in); otherwise the service serves.
  return run(async () => {
    const config = loadProcessConfig('auth-svc', process.argv[2]);
    if (process.argv[2] === 'migrate') return migrateService(config, 'auth', AUTH_MIGRATIONS);
    if (process.argv[2] === 'reset-second-factor') {
      if (!process.argv.includes('--yes')) {
        process.stderr.write('reset-second-factor removes every second factor and recovery code of the owner: run it with --yes.\n');
        process.exit(2);
      }
      process.stdout.write(secondFactorResetReport(await resetSecondFactorAt(databaseUrlFor(config, 'auth'))));
      process.exit(0);
    }
    return startService(config, 'auth', AuthModule.forRoot(authOptions(config)));
  });
})();
