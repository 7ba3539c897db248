import { Controller } from '@nestjs/common';
import { GetBalance, SubtractFromBalance, type Balance, type RpcRequest } from '@vault/contracts';
import { Handles, RpcFailure } from '@vault/transport';
import { BalanceRepository } from './balance.repository.js';

/** A balance that can only go down, and never below zero. */
@Controller()
export class BalanceHandlers {
  constructor(private readonly balance: BalanceRepository) {}

  @Handles(GetBalance)
  async read(): Promise<Balance> {
    return { amount: await this.balance.read() };
  }

  @Handles(SubtractFromBalance)
  async subtract(request: RpcRequest<typeof SubtractFromBalance>): Promise<Balance> {
    const amount = await this.balance.subtract(request.amount);
    if (amount === undefined) {
      const current = await this.balance.read();
      throw new RpcFailure(422, `amount: must not exceed the balance (${current.toLocaleString('en-US')})`);
    }
    return { amount };
  }
}
