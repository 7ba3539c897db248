import { ConfigError, RunMode, presentVar, problemsOf } from '@vault/platform';
import { NOT_EMBEDDED, requirementsOf, unmet, type VaultProcess } from './process-requirements.js';
import { VaultEnvironment, type VaultConfig } from './vault-config.js';

/**
 * A process's configuration, validated once at start. On failure it lists, in
 * one ConfigError, every variable that is invalid AND every one this process
 * needs in the chosen mode that is missing (database, Redis, master key, S3),
 * so an operator fixes them all in one go.
 */
export function loadProcessConfig(process: VaultProcess, command?: string, env: NodeJS.ProcessEnv = globalThis.process.env): VaultConfig {
  const parsed = VaultEnvironment.safeParse(env);
  const problems = parsed.success ? [] : problemsOf(parsed.error);
  const mode = RunMode.default('embedded').safeParse(presentVar(env, 'VAULT_MODE'));
  // An unknown mode is already listed; what it would need cannot be told.
  if (mode.success) {
    if (process === 'vault' && mode.data === 'distributed') problems.push(NOT_EMBEDDED);
    problems.push(...unmet(requirementsOf(process, mode.data, command), env));
  }
  const [current, next] = [presentVar(env, 'VAULT_MASTER_KEY'), presentVar(env, 'VAULT_NEW_MASTER_KEY')];
  if (command === 'rotate-master-key' && current !== undefined && current === next) problems.push('VAULT_NEW_MASTER_KEY: must differ from VAULT_MASTER_KEY');
  if (problems.length > 0 || !parsed.success) throw new ConfigError(problems);
  return parsed.data;
}
