// First, before the rest of the process is loaded: its heap settings. The rest is imported
// after them: a static import would load (and run the CommonJS packages of) the whole graph first.
import '@vault/platform/memory-settings';

const { AUTH_MIGRATIONS, AuthModule } = await import('@vault/auth');
const { authOptions, loadProcessConfig, migrateService, run, startService } = await import('@vault/host');

// `main.js migrate` applies the migrations and exits (a deploy job); otherwise the service serves.
run(() => {
  const config = loadProcessConfig('auth-svc', process.argv[2]);
  if (process.argv[2] === 'migrate') return migrateService(config, 'auth', { schema: 'auth', folder: AUTH_MIGRATIONS });
  return startService(config, 'auth', AuthModule.forRoot(authOptions(config)));
});
