import { HttpException, Inject, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { AccessRecorder } from '../audit/access-recorder.js';
import { GATEWAY_OPTIONS, type GatewayOptions } from '../gateway.options.js';
import { ATTEMPT_COUNTER, type AttemptCounter } from './login-rate-limit.js';

/**
 * The per-address rate limit shared by every step that checks a secret: the
 * password, a code, a passkey, a re-authentication. Each is one attempt of
 * the same budget, so a second step is no way around the limit.
 */
@Injectable()
export class SignInAttempts {
  constructor(
    @Inject(ATTEMPT_COUNTER) private readonly attempts: AttemptCounter,
    @Inject(GATEWAY_OPTIONS) private readonly options: GatewayOptions,
    private readonly access: AccessRecorder,
  ) {}

  async admit(request: FastifyRequest): Promise<void> {
    const { attempts, windowSeconds } = this.options.loginRateLimit;
    let count: number;
    try {
      count = await this.attempts.hit(request.ip, windowSeconds);
    } catch {
      throw new HttpException('The rate limiter is unavailable. Try again shortly.', 503);
    }
    if (count > attempts) {
      this.access.record(request, 'rate_limited', false);
      throw new HttpException(`Rate limit exceeded: too many sign-in attempts. Try again in ${Math.ceil(windowSeconds / 60)} minutes.`, 429);
    }
  }
}
