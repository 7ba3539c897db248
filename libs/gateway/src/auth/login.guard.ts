import { BadRequestException, HttpException, Inject, Injectable, UnauthorizedException, type ExecutionContext } from '@nestjs/common';
import { AuthGuard } from '@nestjs/passport';
import type { FastifyRequest } from 'fastify';
import { AccessRecorder } from '../audit/access-recorder.js';
import { GATEWAY_OPTIONS, type GatewayOptions } from '../gateway.options.js';
import { ATTEMPT_COUNTER, type AttemptCounter } from './login-rate-limit.js';

/**
 * Sign-in: first the per-address rate limit, then passport's local strategy
 * (auth-svc checks the password and the lockout). Every outcome is logged.
 */
@Injectable()
export class LoginGuard extends AuthGuard('local') {
  constructor(
    @Inject(ATTEMPT_COUNTER) private readonly attempts: AttemptCounter,
    @Inject(GATEWAY_OPTIONS) private readonly options: GatewayOptions,
    private readonly access: AccessRecorder,
  ) {
    super();
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
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
    try {
      const allowed = (await super.canActivate(context)) as boolean;
      this.access.record(request, 'login_success', true);
      return allowed;
    } catch (error) {
      const status = error instanceof HttpException ? error.getStatus() : (error as { status?: number }).status;
      if (status === 423) this.access.record(request, 'account_locked', false);
      else if (status !== undefined && status < 500) this.access.record(request, 'failed_login', false);
      throw error;
    }
  }

  /** Passport answers missing fields with a bare failure; say which. */
  override handleRequest<T>(err: unknown, user: T, _info: unknown, _context: unknown, status?: number): T {
    if (err) throw err;
    if (!user) {
      if (status === 400) throw new BadRequestException('username and password are required');
      throw new UnauthorizedException('Invalid credentials');
    }
    return user;
  }
}
