// First, before the rest of the process is loaded: its heap settings. The rest is imported
// after them: a static import would load (and run the CommonJS packages of) the whole graph first.
// Inside a function, not at the top level: the bundle its image and npm start run is one script
// (scripts/lib/app-bundle.mjs's buildProgram), which has no top-level await.
import '@vault/platform/memory-settings';

/** Resolves once the app is up (libs/platform's compiled-program.ts keeps its code cache after its first answer). */
export const started: Promise<unknown> = (async () => {
  const { loadProcessConfig, migrateService, requireS3, run, startService } = await import('@vault/host');
  const { MEDIA_MIGRATIONS, MediaModule } = await import('@vault/media');
  // The distributed media-svc keeps photos in an S3-compatible bucket; only the
  // embedded vault keeps them as files (its gateway answers the upload URLs).
  // `main.js migrate` applies the migrations and exits (a deploy job, no bucket needed).
  return run(() => {
    const config = loadProcessConfig('media-svc', process.argv[2]);
    if (process.argv[2] === 'migrate') return migrateService(config, 'media', MEDIA_MIGRATIONS);
    return startService(config, 'media', MediaModule.forRoot({ migrate: !config.VAULT_SKIP_MIGRATIONS, store: requireS3(config) }));
  });
})();
