import { AUTH_MIGRATIONS, AuthModule } from '@vault/auth';
import { authOptions, loadVaultConfig, migrateService, run, startService } from '@vault/host';

// `main.js migrate` applies the migrations and exits (a deploy job); otherwise the service serves.
run(() => {
  const config = loadVaultConfig();
  if (process.argv[2] === 'migrate') return migrateService(config, 'auth', { schema: 'auth', folder: AUTH_MIGRATIONS });
  return startService(config, 'auth', AuthModule.forRoot(authOptions(config)));
});
