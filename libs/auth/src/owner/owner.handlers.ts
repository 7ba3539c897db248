import { Controller, Inject } from '@nestjs/common';
import { GetOwnerProfile, VerifyOwner, type Owner, type RpcRequest } from '@vault/contracts';
import { Handles, RpcFailure } from '@vault/transport';
import { LockoutService } from '../lockout/lockout.service.js';
import { OwnerCredentialService } from './owner-credential.service.js';
import { OWNER_OPTIONS, type OwnerOptions } from './owner.options.js';

const LOCKED = 'Account locked after repeated failed sign-ins. Try again later.';

@Controller()
export class OwnerHandlers {
  constructor(
    @Inject(OWNER_OPTIONS) private readonly owner: OwnerOptions,
    private readonly credentials: OwnerCredentialService,
    private readonly lockout: LockoutService,
  ) {}

  /**
   * A locked-out address is refused before the password is even checked, so
   * the right password does not open the vault until the lockout ends.
   */
  @Handles(VerifyOwner)
  async verify(request: RpcRequest<typeof VerifyOwner>): Promise<Owner> {
    const ip = request.client?.ip ?? 'unknown';
    if (await this.lockout.isLocked(ip)) throw new RpcFailure(423, LOCKED);
    if (!(await this.credentials.verify(request.username, request.password))) {
      if (await this.lockout.recordFailure(ip)) throw new RpcFailure(423, LOCKED);
      throw RpcFailure.unauthorized('Invalid credentials');
    }
    await this.lockout.clear(ip);
    return this.ownerProfile();
  }

  @Handles(GetOwnerProfile)
  profile(): Owner {
    return this.ownerProfile();
  }

  // Handler methods answer the transport; other methods must not call them.
  private ownerProfile(): Owner {
    return { name: this.owner.name, username: this.owner.username };
  }
}
