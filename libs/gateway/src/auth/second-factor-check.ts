import { Injectable } from '@nestjs/common';
import { VerifySecondFactor, type RpcInput } from '@vault/contracts';
import { RpcClient, RpcFailure } from '@vault/transport';
import type { FastifyRequest } from 'fastify';
import { AccessRecorder } from '../audit/access-recorder.js';
import { clientOf } from './request-body.js';

type Proof = Omit<RpcInput<typeof VerifySecondFactor>, 'client'>;

/**
 * The second step, for a sign-in and a re-authentication alike: auth-svc
 * judges the code or passkey within the address's lockout streak, and every
 * outcome reaches the access log under its own name.
 */
@Injectable()
export class SecondFactorCheck {
  constructor(
    private readonly rpc: RpcClient,
    private readonly access: AccessRecorder,
  ) {}

  async verify(request: FastifyRequest, proof: Proof) {
    try {
      const result = await this.rpc.send(VerifySecondFactor, { ...proof, client: clientOf(request) });
      this.access.record(request, result.method === 'recovery' ? 'recovery_code_used' : 'second_factor_succeeded', true);
      return result;
    } catch (error) {
      const status = error instanceof RpcFailure ? error.status : undefined;
      if (status === 423) this.access.record(request, 'account_locked', false);
      else if (status !== undefined && status < 500) this.access.record(request, 'second_factor_failed', false);
      throw error;
    }
  }
}
