import { randomBytes } from 'node:crypto';
import type { Msg, MsgHdrs, NatsConnection } from '@nats-io/transport-node';

/** A request waiting for its reply. */
interface Waiting {
  subject: string;
  resolve(reply: Msg): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

/**
 * One connection's shared reply inbox: the reply to every request comes to
 * `<inbox>.<token>`, all on one subscription, as with nats.js's own
 * `request`. A request costs a map entry and a timer: nats.js's also made,
 * for every answered request, an Error (its stack captured) to cancel what
 * was already settled, and a promise for its timer (issue 37). The
 * subscription outlives the connection's reconnects (nats.js subscribes it
 * again); what was in flight when the connection dropped is failed by the
 * caller (failAll), since those replies are lost.
 */
export class ReplyInbox {
  // An inbox as nats.js names one (`_INBOX.` and a random token), made here: the transport's entry loads no
  // @nats-io code (an embedded vault never does), so this file imports its types only.
  private readonly prefix = `_INBOX.${randomBytes(12).toString('hex')}.`;
  private readonly waiting = new Map<string, Waiting>();
  private sequence = 0;

  constructor(readonly connection: NatsConnection) {
    connection.subscribe(`${this.prefix}*`, { callback: (error, reply) => (error ? this.failAll(error) : this.settle(reply)) });
  }

  /** Publishes the request; resolves with its reply, rejects when no service is there or none answers within `timeoutMs`. */
  request(subject: string, payload: string, headers: MsgHdrs | undefined, timeoutMs: number): Promise<Msg> {
    const token = (++this.sequence).toString(36);
    return new Promise<Msg>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(token);
        reject(new Error(`no reply to ${subject} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.waiting.set(token, { subject, resolve, reject, timer });
      try {
        this.connection.publish(subject, payload, { reply: this.prefix + token, headers });
      } catch (error) {
        clearTimeout(timer);
        this.waiting.delete(token);
        reject(error as Error);
      }
    });
  }

  /** Fails every request in flight with `error`. */
  failAll(error: Error) {
    for (const waiting of this.waiting.values()) {
      clearTimeout(waiting.timer);
      waiting.reject(error);
    }
    this.waiting.clear();
  }

  private settle(reply: Msg) {
    const token = reply.subject.slice(this.prefix.length);
    const waiting = this.waiting.get(token);
    // A reply after its request's deadline: no one waits for it.
    if (!waiting) return;
    this.waiting.delete(token);
    clearTimeout(waiting.timer);
    // The broker's own answer when no subscriber took the request: an empty message with status 503.
    if (reply.data.length === 0 && reply.headers?.code === 503) waiting.reject(new Error(`no service answers ${waiting.subject}`));
    else waiting.resolve(reply);
  }
}
