import { Controller, Get, HttpCode, Post } from '@nestjs/common';
import { GetBalance, SubtractFromBalance } from '@vault/contracts';
import { RpcClient } from '@vault/transport';
import { JsonBody } from '../http/json-body.decorator.js';

/** The balance screen (/bonaparte). */
@Controller('api/bonaparte')
export class BalanceController {
  constructor(private readonly rpc: RpcClient) {}

  @Get('balance')
  read() {
    return this.rpc.send(GetBalance, {});
  }

  @Post('subtract')
  @HttpCode(200)
  subtract(@JsonBody() body: Record<string, unknown>) {
    return this.rpc.forward(SubtractFromBalance, body);
  }
}
