import { Controller, Inject } from '@nestjs/common';
import { GetOwnerProfile, VerifyOwner, type Owner, type PasswordVerdict, type RpcRequest } from '@vault/contracts';
import { Handles, RpcFailure } from '@vault/transport';
import { LOCKED, LockoutService, refusalOf } from '../lockout/lockout.service.js';
import { SecondFactorService } from '../second-factor/second-factor.service.js';
import { OwnerCredentialService } from './owner-credential.service.js';
import { OWNER_OPTIONS, type OwnerOptions } from './owner.options.js';

@Controller()
export class OwnerHandlers {
  constructor(
    @Inject(OWNER_OPTIONS) private readonly owner: OwnerOptions,
    private readonly credentials: OwnerCredentialService,
    private readonly lockout: LockoutService,
    private readonly factors: SecondFactorService,
  ) {}

  /**
   * The attempt claims its place in the address's streak before the password
   * is hashed: a locked-out address is refused unjudged, so the right password
   * does not open the vault until the lockout ends, however many attempts
   * arrive at once; only a wrong one counts toward the lock. With a second
   * factor enrolled the right password does not end the streak: the factor
   * does (VerifySecondFactor).
   */
  @Handles(VerifyOwner)
  async verify(request: RpcRequest<typeof VerifyOwner>): Promise<PasswordVerdict> {
    const ip = request.client?.ip ?? 'unknown';
    const claim = await this.lockout.claimInTurn(ip);
    if (!claim.judged) throw refusalOf(claim);
    // The factors enrolled when the password is right, undefined when it is wrong.
    const secondFactor = await this.lockout.judge(ip, async () =>
      (await this.credentials.verify(request.username, request.password)) ? await this.factors.methods() : undefined,
    );
    if (!secondFactor) {
      if (await this.lockout.recordFailure(ip)) throw new RpcFailure(423, LOCKED);
      throw RpcFailure.unauthorized('Invalid credentials');
    }
    if (secondFactor.length > 0) await this.lockout.unclaim(ip);
    else await this.lockout.release(ip, claim);
    return { ...this.ownerProfile(), secondFactor };
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
