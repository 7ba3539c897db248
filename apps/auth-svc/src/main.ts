import { AuthModule } from '@vault/auth';
import { authOptions, loadVaultConfig, run, startService } from '@vault/host';

run(() => {
  const config = loadVaultConfig();
  return startService(config, 'auth', AuthModule.forRoot(authOptions(config)));
});
