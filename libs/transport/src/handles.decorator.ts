import { MessagePattern } from '@nestjs/microservices';
import { describeIssues, type RpcContract, type RpcEnvelope, type RpcReply, type RpcRequest, type RpcResponse } from '@vault/contracts';
import { contextLogger, isOutage, requestContext } from '@vault/platform';
import { errorWithCauses } from './error-with-causes.js';
import { RpcFailure } from './rpc-failure.js';

const logger = contextLogger('Handles');

/**
 * What a handler of contract C may be: it takes the request as the contract
 * parses it (or nothing) and returns what the contract's response describes.
 * A function type, not a method signature, so the parameter is checked
 * contravariantly: a handler written for another contract's request fails.
 */
export type HandlerOf<C extends RpcContract> = (request: RpcRequest<C>) => RpcResponse<C> | Promise<RpcResponse<C>>;

/**
 * Marks a method as the handler of one contract. The method receives the
 * request already parsed by the contract's schema, runs under the caller's
 * request id, and whatever it returns or throws travels back as an RpcReply,
 * identically over the in-process transport and NATS.
 */
export function Handles<C extends RpcContract>(contract: C) {
  // Generic over the method, so the compiler checks the decorated method against HandlerOf<C>.
  return <M extends HandlerOf<C>>(target: object, key: string | symbol, descriptor: TypedPropertyDescriptor<M>): void => {
    const handler = descriptor.value as unknown as (request: unknown) => unknown;
    // The wrapper takes the envelope off the wire, not the request: Nest calls it, never the service's own code.
    descriptor.value = async function handle(this: unknown, envelope: RpcEnvelope | undefined): Promise<RpcReply> {
      // The trace the transport's server opened for this call stays: its span is this handler's.
      return requestContext.run({ ...requestContext.getStore(), requestId: envelope?.meta?.requestId }, async () => {
        // Parsing is inside too: a schema can throw (a stack overflow on a hostile shape), not only refuse.
        try {
          const parsed = contract.request.safeParse(envelope?.data ?? {});
          if (!parsed.success) {
            return { ok: false, error: { status: 400, message: describeIssues(parsed.error) } };
          }
          return { ok: true, data: await handler.call(this, parsed.data) };
        } catch (error) {
          if (error instanceof RpcFailure) return { ok: false, error: error.toBody() };
          // Its database (or another server it needs) unreachable or out of connections: a dependency's fault, answered 503 as the gateway answers a service that is away.
          if (isOutage(error)) {
            logger.warn(`${contract.pattern}: a dependency is unavailable: ${errorWithCauses(error)}`);
            return { ok: false, error: RpcFailure.serviceUnavailable(contract.pattern).toBody() };
          }
          // The details stay in this service's log; the caller learns only which service failed.
          logger.error(`${contract.pattern} failed: ${errorWithCauses(error)}`);
          return { ok: false, error: RpcFailure.failedIn(contract.pattern).toBody() };
        }
      });
    } as unknown as M;
    // Nest keeps the pattern on the function itself, so it must see the wrapper.
    MessagePattern(contract.pattern)(target, key, descriptor);
  };
}
