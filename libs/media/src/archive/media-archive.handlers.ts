import { Controller } from '@nestjs/common';
import { DiscardMediaImport, EXPORT_PAGES, ImportPhoto, MediaImportReadiness, ReservePhotoImport, type RpcRequest } from '@vault/contracts';
import { Handles } from '@vault/transport';
import { MediaArchiveService } from './media-archive.service.js';

/** media-svc's part of an export and of a restore (see MediaArchiveService). */
@Controller()
export class MediaArchiveHandlers {
  constructor(private readonly archive: MediaArchiveService) {}

  @Handles(EXPORT_PAGES.photos)
  exportPhotos({ after }: RpcRequest<typeof EXPORT_PAGES.photos>) {
    return this.archive.exportPage(after);
  }

  @Handles(ReservePhotoImport)
  reserve() {
    return this.archive.reserve();
  }

  @Handles(ImportPhoto)
  importPhoto({ key, record, sha256 }: RpcRequest<typeof ImportPhoto>) {
    return this.archive.keep(key, record, sha256);
  }

  @Handles(MediaImportReadiness)
  async readiness() {
    const holds = await this.archive.holdings();
    return { service: 'media', empty: holds.length === 0, holds };
  }

  @Handles(DiscardMediaImport)
  async discard() {
    await this.archive.discardAll();
    return { service: 'media', discarded: true as const };
  }
}
