import { BadRequestException, Injectable, UnauthorizedException } from '@nestjs/common';
import { AuthGuard } from '@nestjs/passport';

@Injectable()
export class LoginGuard extends AuthGuard('local') {
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
