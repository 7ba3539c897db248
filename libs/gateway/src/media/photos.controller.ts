import { Controller, Delete, Get, Param, Put, Query } from '@nestjs/common';
import { DeletePhoto, ListPhotos, RegisterPhoto } from '@vault/contracts';
import { RpcClient } from '@vault/transport';
import { JsonBody } from '../http/json-body.decorator.js';

@Controller('api/photos')
export class PhotosController {
  constructor(private readonly rpc: RpcClient) {}

  /** Every stored photo, newest first; `?limit=&offset=` reads one page. */
  @Get()
  list(@Query('limit') limit?: string, @Query('offset') offset?: string) {
    return this.rpc.forward(ListPhotos, { limit, offset });
  }

  /** Spec 7: `PUT /api/photos {photoURL}` registers an upload; the answer holds objectPath. */
  @Put()
  register(@JsonBody() body: Record<string, unknown>) {
    return this.rpc.forward(RegisterPhoto, body);
  }

  @Delete(':id')
  remove(@Param('id') id: string) {
    return this.rpc.forward(DeletePhoto, { id });
  }
}
