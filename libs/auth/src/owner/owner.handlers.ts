import { Controller, Inject } from '@nestjs/common';
import { GetOwnerProfile, VerifyOwner, type Owner, type RpcRequest } from '@vault/contracts';
import { Handles, RpcFailure } from '@vault/transport';
import { OwnerCredentialService } from './owner-credential.service.js';
import { OWNER_OPTIONS, type OwnerOptions } from './owner.options.js';

@Controller()
export class OwnerHandlers {
  constructor(
    @Inject(OWNER_OPTIONS) private readonly owner: OwnerOptions,
    private readonly credentials: OwnerCredentialService,
  ) {}

  @Handles(VerifyOwner)
  async verify(request: RpcRequest<typeof VerifyOwner>): Promise<Owner> {
    if (!(await this.credentials.verify(request.username, request.password))) {
      throw RpcFailure.unauthorized('Invalid credentials');
    }
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
