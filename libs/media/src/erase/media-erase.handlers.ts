import { Controller } from '@nestjs/common';
import { EraseMedia, VaultDestroyed } from '@vault/contracts';
import { Handles, OnEvent } from '@vault/transport';
import { MediaEraser } from '../media-eraser.js';

/** Self-destruct: every photo row and every object. Asked directly, or by the kept event. */
@Controller()
export class MediaEraseHandlers {
  constructor(private readonly eraser: MediaEraser) {}

  @Handles(EraseMedia)
  async erase() {
    await this.eraser.eraseEverything();
    return { service: 'media', erased: true as const };
  }

  @OnEvent(VaultDestroyed)
  async onDestroyed() {
    await this.eraser.eraseEverything();
  }
}
