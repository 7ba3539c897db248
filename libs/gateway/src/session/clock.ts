import { Injectable } from '@nestjs/common';

/**
 * The gateway's time for the re-authentication window: one provider, so a
 * test can move it forward (past the window) instead of waiting.
 */
@Injectable()
export class Clock {
  now(): number {
    return Date.now();
  }
}
