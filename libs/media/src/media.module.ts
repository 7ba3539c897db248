import { Module, type DynamicModule, type Provider } from '@nestjs/common';
import { ServiceDatabaseModule } from '@vault/persistence';
import { MediaArchiveHandlers } from './archive/media-archive.handlers.js';
import { MediaArchiveService } from './archive/media-archive.service.js';
import { MEDIA_DB, MEDIA_MIGRATIONS } from './database.js';
import { ErasureWatchRepository } from './erase/erasure-watch.repository.js';
import { MediaEraseHandlers } from './erase/media-erase.handlers.js';
import { MediaEraser } from './media-eraser.js';
import { MEDIA_OPTIONS, type MediaOptions, type ObjectStoreOptions } from './media.options.js';
import { PhotosHandlers } from './photos/photos.handlers.js';
import { PhotosRepository } from './photos/photos.repository.js';
import { PhotoBuffer } from './photos/photo-buffer.js';
import { PhotosService } from './photos/photos.service.js';
import { FileObjectStore } from './storage/file-object.store.js';
import { OBJECT_STORE, type ObjectStore } from './storage/object.store.js';
import { FileUploadController } from './uploads/file-upload.controller.js';
import { RawUploadBodies } from './uploads/raw-upload.parser.js';
import { UploadsHandlers } from './uploads/uploads.handlers.js';
import { UploadsRepository } from './uploads/uploads.repository.js';
import { UploadsService } from './uploads/uploads.service.js';
import { UploadSweeper } from './uploads/upload-sweeper.js';

/**
 * The adapter the options name; the rest of the module never asks which. The
 * S3 store (and the AWS SDK under it) is loaded only when a bucket is named:
 * the embedded vault never loads `@aws-sdk/*`.
 */
export async function createObjectStore(options: ObjectStoreOptions): Promise<ObjectStore> {
  if (options.kind === 'file') return new FileObjectStore(options.dir, options.signingKey);
  const { S3ObjectStore } = await import('./storage/s3-object.store.js');
  return new S3ObjectStore(options);
}

/**
 * media-svc: photo records in the `media` schema, their bytes in an object
 * store (a folder in embedded mode, an S3-compatible bucket in distributed
 * mode). The store is ready (bucket or folder created) before any handler runs.
 */
@Module({})
export class MediaModule {
  static forRoot(options: MediaOptions): DynamicModule {
    const file = options.store.kind === 'file';
    // The embedded store answers its own upload URLs, on the gateway's HTTP server in the same process.
    const fileUploads: Provider[] = file ? [{ provide: FileObjectStore, useExisting: OBJECT_STORE }, RawUploadBodies] : [];
    return {
      module: MediaModule,
      imports: [ServiceDatabaseModule.forService({ token: MEDIA_DB, migrations: MEDIA_MIGRATIONS, migrate: options.migrate })],
      controllers: [UploadsHandlers, PhotosHandlers, MediaEraseHandlers, MediaArchiveHandlers, ...(file ? [FileUploadController] : [])],
      providers: [
        { provide: MEDIA_OPTIONS, useValue: options },
        {
          provide: OBJECT_STORE,
          useFactory: async () => {
            const store = await createObjectStore(options.store);
            await store.prepare();
            return store;
          },
        },
        ...fileUploads,
        UploadsRepository,
        UploadsService,
        PhotosRepository,
        PhotosService,
        PhotoBuffer,
        ErasureWatchRepository,
        UploadSweeper,
        MediaEraser,
        MediaArchiveService,
      ],
      exports: [MediaEraser],
    };
  }
}
