import { loadVaultConfig, migrateService, requireS3, run, startService } from '@vault/host';
import { MEDIA_MIGRATIONS, MediaModule } from '@vault/media';

// The distributed media-svc keeps photos in an S3-compatible bucket; only the
// embedded vault keeps them as files (its gateway answers the upload URLs).
// `main.js migrate` applies the migrations and exits (a deploy job, no bucket needed).
run(() => {
  const config = loadVaultConfig();
  if (process.argv[2] === 'migrate') return migrateService(config, 'media', { schema: 'media', folder: MEDIA_MIGRATIONS });
  return startService(config, 'media', MediaModule.forRoot({ migrate: !config.VAULT_SKIP_MIGRATIONS, store: requireS3(config) }));
});
