import { loadVaultConfig, requireS3, run, startService } from '@vault/host';
import { MediaModule } from '@vault/media';

// The distributed media-svc keeps photos in an S3-compatible bucket; only the
// embedded vault keeps them as files (its gateway answers the upload URLs).
run(() => {
  const config = loadVaultConfig();
  return startService(config, 'media', MediaModule.forRoot({ migrate: !config.VAULT_SKIP_MIGRATIONS, store: requireS3(config) }));
});
