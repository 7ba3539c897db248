import { Logger } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import { describeIssues, type RpcContract, type RpcEnvelope, type RpcReply } from '@vault/contracts';
import { requestContext } from '@vault/platform';
import { RpcFailure } from './rpc-failure.js';

const logger = new Logger('Handles');

/**
 * Marks a method as the handler of one contract. The method receives the
 * request already parsed by the contract's schema, runs under the caller's
 * request id, and whatever it returns or throws travels back as an RpcReply,
 * identically over the in-process transport and NATS.
 */
export function Handles(contract: RpcContract): MethodDecorator {
  return (target, key, descriptor: PropertyDescriptor) => {
    const handler = descriptor.value as (request: unknown) => unknown;
    descriptor.value = async function handle(this: unknown, envelope: RpcEnvelope | undefined): Promise<RpcReply> {
      return requestContext.run({ requestId: envelope?.meta?.requestId }, async () => {
        // Parsing is inside too: a schema can throw (a stack overflow on a hostile shape), not only refuse.
        try {
          const parsed = contract.request.safeParse(envelope?.data ?? {});
          if (!parsed.success) {
            return { ok: false, error: { status: 400, message: describeIssues(parsed.error) } };
          }
          return { ok: true, data: await handler.call(this, parsed.data) };
        } catch (error) {
          if (error instanceof RpcFailure) return { ok: false, error: error.toBody() };
          // The details stay in this service's log; the caller learns only which service failed.
          logger.error(`${contract.pattern} failed: ${(error as Error)?.stack ?? String(error)}`);
          return { ok: false, error: RpcFailure.failedIn(contract.pattern).toBody() };
        }
      });
    };
    // Nest keeps the pattern on the function itself, so it must see the wrapper.
    MessagePattern(contract.pattern)(target, key, descriptor);
    return descriptor;
  };
}
