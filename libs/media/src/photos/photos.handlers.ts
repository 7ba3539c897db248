import { Controller } from '@nestjs/common';
import { AddForeignPhoto, DeletePhoto, ListPhotos, LocatePhoto, RegisterPhoto, type Photo, type PhotoLocation, type RpcRequest } from '@vault/contracts';
import { Handles } from '@vault/transport';
import { PhotosService } from './photos.service.js';

/** The photo vault: register an upload, list, locate for the gateway, delete. */
@Controller()
export class PhotosHandlers {
  constructor(private readonly photos: PhotosService) {}

  @Handles(RegisterPhoto)
  register(request: RpcRequest<typeof RegisterPhoto>): Promise<Photo> {
    return this.photos.register(request.photoURL, request.keepLocation ?? false);
  }

  @Handles(AddForeignPhoto)
  async addForeign(request: RpcRequest<typeof AddForeignPhoto>) {
    const photo = await this.photos.registerImported(request.key, new Date(request.createdAt));
    return { id: photo.id, contentType: photo.contentType, size: photo.size };
  }

  @Handles(ListPhotos)
  list(request: RpcRequest<typeof ListPhotos>): Promise<Photo[]> {
    return this.photos.list(request);
  }

  @Handles(LocatePhoto)
  locate(request: RpcRequest<typeof LocatePhoto>): Promise<PhotoLocation> {
    return this.photos.locate(request.id);
  }

  @Handles(DeletePhoto)
  remove(request: RpcRequest<typeof DeletePhoto>): Promise<{ id: string }> {
    return this.photos.remove(request.id);
  }
}
