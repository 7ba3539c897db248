import type { RpcErrorBody } from '@vault/contracts';

/**
 * A refusal with the HTTP status it stands for. Handlers throw it; it crosses
 * the transport as data and the gateway answers with its status and message.
 */
export class RpcFailure extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'RpcFailure';
  }

  toBody(): RpcErrorBody {
    return { status: this.status, message: this.message };
  }

  static badRequest(message: string) {
    return new RpcFailure(400, message);
  }
  static unauthorized(message = 'Unauthorized') {
    return new RpcFailure(401, message);
  }
  static notFound(message: string) {
    return new RpcFailure(404, message);
  }
  static unavailable(message: string) {
    return new RpcFailure(503, message);
  }
  /** The service of a pattern cannot do the work now: no answer in time, or what it depends on is unavailable. */
  static serviceUnavailable(pattern: string) {
    return new RpcFailure(503, `The ${serviceOf(pattern)} service is unavailable. Try again shortly.`);
  }
  /** A handler's own unexpected exception: the service answered, but could not do the work. */
  static failedIn(pattern: string) {
    return new RpcFailure(500, `The ${serviceOf(pattern)} service failed on this request.`);
  }
}

/** The service a pattern belongs to: `planner.targets.list` is planner's. */
export function serviceOf(pattern: string): string {
  return pattern.split('.')[0];
}
