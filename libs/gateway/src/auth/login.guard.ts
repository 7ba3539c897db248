import { BadRequestException, HttpException, Injectable, UnauthorizedException, type ExecutionContext } from '@nestjs/common';
import { AuthGuard } from '@nestjs/passport';
import type { PasswordVerdict } from '@vault/contracts';
import type { FastifyRequest } from 'fastify';
import { AccessRecorder } from '../audit/access-recorder.js';
import { SignInAttempts } from './sign-in-attempts.js';

/**
 * Sign-in: first the per-address rate limit, then passport's local strategy
 * (auth-svc checks the password and the lockout). Every outcome is logged;
 * a right password with a second factor still to come is not yet a sign-in.
 */
@Injectable()
export class LoginGuard extends AuthGuard('local') {
  constructor(
    private readonly attempts: SignInAttempts,
    private readonly access: AccessRecorder,
  ) {
    super();
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<FastifyRequest & { user?: PasswordVerdict }>();
    await this.attempts.admit(request);
    try {
      const allowed = (await super.canActivate(context)) as boolean;
      this.access.record(request, request.user?.secondFactor.length ? 'password_accepted' : 'login_success', true);
      return allowed;
    } catch (error) {
      const status = error instanceof HttpException ? error.getStatus() : (error as { status?: number }).status;
      if (status === 423) this.access.record(request, 'account_locked', false);
      else if (status === 429) this.access.record(request, 'rate_limited', false);
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
