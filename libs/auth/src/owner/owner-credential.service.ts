import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { ConfigError, contextLogger, ownerCommand } from '@vault/platform';
import { VaultStateRepository } from '../vault-state/vault-state.repository.js';
import { OwnerCredentialRepository } from './owner-credential.repository.js';
import { OWNER_OPTIONS, type OwnerOptions } from './owner.options.js';
import { generatePassword, hashPassword, isArgon2idHash, verifyPassword } from './password-hasher.js';
import { passwordProblem } from './password-policy.js';

/**
 * Makes sure the owner has a credential before the service answers: the
 * configured hash or password, else the stored one, else (embedded first run)
 * a generated password that is printed once and kept only as its hash.
 * A destroyed vault gets no credential at all: nothing is stored again until
 * the operator starts a new vault.
 */
@Injectable()
export class OwnerCredentialService implements OnModuleInit {
  private readonly logger = contextLogger('Owner');
  private passwordHash?: string;
  /**
   * Under way from construction (its repositories exist only once their
   * migrations are applied), waited for by onModuleInit: the start's other
   * modules are made and their routes registered meanwhile. With
   * VAULT_OWNER_PASSWORD set, every restart verifies it against the stored
   * hash, about 40 ms on libuv's threads, which the start waited for doing
   * nothing else (issue 37).
   */
  private readonly ensured: Promise<void>;

  constructor(
    @Inject(OWNER_OPTIONS) private readonly owner: OwnerOptions,
    private readonly credentials: OwnerCredentialRepository,
    private readonly state: VaultStateRepository,
  ) {
    this.ensured = this.ensureCredential();
    // Reported by onModuleInit, which stops the start; not as unhandled before it is awaited.
    this.ensured.catch(() => undefined);
  }

  onModuleInit(): Promise<void> {
    return this.ensured;
  }

  private async ensureCredential() {
    if ((await this.state.read()).destroyed) {
      // Nothing is stored in a destroyed vault, but a weak configured password still stops the start.
      await this.refuseWeakConfiguredPassword();
      return;
    }
    this.passwordHash = await this.resolveHash();
  }

  /** After a self-destruct: the erased hash must not live on in memory. */
  forget() {
    this.passwordHash = undefined;
  }

  async verify(username: string, password: string): Promise<boolean> {
    const hash = this.passwordHash ?? (await this.credentials.findHash());
    // Verify even for a wrong username, so the answer takes as long either way.
    const passwordOk = hash ? await verifyPassword(hash, password) : false;
    return passwordOk && username === this.owner.username;
  }

  /** The password alone, for a change that needs it again (removing the last second factor). */
  async verifyPassword(password: string): Promise<boolean> {
    const hash = this.passwordHash ?? (await this.credentials.findHash());
    return hash ? verifyPassword(hash, password) : false;
  }

  /**
   * Checked whenever a configured password is not the one in force, so a
   * weak one never opens the vault. One that is (every start after the
   * first, as a compose file sets it) was checked when it was stored, as
   * every password the owner sets is: judging it again cost a quarter of a
   * second at each start (the estimator's lists), where the stored hash
   * takes a verify (about 40 ms).
   */
  private async refuseWeakConfiguredPassword() {
    const { password, passwordHash, name, username } = this.owner;
    if (!password || passwordHash) return;
    const problem = await passwordProblem(password, [name, username]);
    if (problem) throw new ConfigError([`VAULT_OWNER_PASSWORD: ${problem}`]);
  }

  private async resolveHash(): Promise<string> {
    const { passwordHash, password } = this.owner;
    if (passwordHash) {
      if (!isArgon2idHash(passwordHash)) throw new Error('VAULT_OWNER_PASSWORD_HASH is not an argon2id hash');
      await this.credentials.saveHash(passwordHash);
      return passwordHash;
    }
    const stored = await this.credentials.findHash();
    if (password) {
      if (stored && (await verifyPassword(stored, password))) return stored;
      await this.refuseWeakConfiguredPassword();
      const hash = await hashPassword(password);
      await this.credentials.saveHash(hash);
      return hash;
    }
    if (stored) return stored;
    if (!this.owner.generateIfMissing) {
      throw new Error('The owner has no password: set VAULT_OWNER_PASSWORD_HASH (argon2id), or run the set-password command once.');
    }
    const generated = generatePassword();
    const hash = await hashPassword(generated);
    await this.credentials.saveHash(hash);
    // Printed once, straight to the terminal; only the hash is kept.
    process.stdout.write(
      `\n  Vault first run: the owner "${this.owner.username}" can sign in with this password:\n\n      ${generated}\n\n` +
        `  It is shown only now. Change it with: ${ownerCommand()} set-password\n\n`,
    );
    this.logger.warn('Generated a first-run owner password and printed it once.');
    return hash;
  }
}
