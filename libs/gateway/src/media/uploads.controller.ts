import { Controller, HttpCode, Post } from '@nestjs/common';
import { RequestPhotoUpload, type UploadParameters } from '@vault/contracts';
import { RpcClient } from '@vault/transport';

/** Spec 7: `POST /api/objects/upload` answers `{uploadURL}`, where the browser PUTs the photo itself. */
@Controller('api/objects')
export class UploadsController {
  constructor(private readonly rpc: RpcClient) {}

  @Post('upload')
  @HttpCode(200)
  issue(): Promise<UploadParameters> {
    return this.rpc.send(RequestPhotoUpload, {});
  }
}
