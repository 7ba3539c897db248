import { Injectable } from '@nestjs/common';

/**
 * When the access log was last erased. An access event that happened before
 * that moment but arrives after it (events travel asynchronously) is dropped,
 * so nothing from before a self-destruct reappears in the log.
 */
@Injectable()
export class ErasureClock {
  private erasedAt = 0;

  markErased(at: Date) {
    this.erasedAt = Math.max(this.erasedAt, at.getTime());
  }

  isBeforeErasure(at: Date): boolean {
    return at.getTime() <= this.erasedAt;
  }
}
