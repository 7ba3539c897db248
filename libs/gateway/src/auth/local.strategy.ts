import { BadRequestException, Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { LoginRequest, VerifyOwner, describeIssues, type PasswordVerdict } from '@vault/contracts';
import { RpcClient } from '@vault/transport';
import type { FastifyRequest } from 'fastify';
import { Strategy } from 'passport-local';

/**
 * Passport's username/password step. The credentials are read from the JSON
 * body only (never the query string) and checked by auth-svc.
 */
@Injectable()
export class LocalStrategy extends PassportStrategy(Strategy, 'local') {
  constructor(private readonly rpc: RpcClient) {
    super({ usernameField: 'username', passwordField: 'password', passReqToCallback: true, session: false });
  }

  async validate(request: FastifyRequest): Promise<PasswordVerdict> {
    const parsed = LoginRequest.safeParse(request.body);
    if (!parsed.success) throw new BadRequestException(describeIssues(parsed.error));
    return this.rpc.send(VerifyOwner, {
      ...parsed.data,
      client: { ip: request.ip, userAgent: request.headers['user-agent']?.slice(0, 1000) },
    });
  }
}
