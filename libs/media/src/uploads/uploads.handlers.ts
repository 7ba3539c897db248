import { Controller } from '@nestjs/common';
import { RequestPhotoUpload, type UploadParameters } from '@vault/contracts';
import { Handles } from '@vault/transport';
import { UploadsService } from './uploads.service.js';

@Controller()
export class UploadsHandlers {
  constructor(private readonly uploads: UploadsService) {}

  @Handles(RequestPhotoUpload)
  issue(): Promise<UploadParameters> {
    return this.uploads.issue();
  }
}
