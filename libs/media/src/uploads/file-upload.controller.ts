import {
  BadRequestException,
  Controller,
  ForbiddenException,
  HttpCode,
  NotFoundException,
  Param,
  PayloadTooLargeException,
  Put,
  Query,
  Req,
  UnsupportedMediaTypeException,
} from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { PHOTO_MAX_BYTES } from '@vault/contracts';
import { RAW_BODY_ROUTE } from '@vault/platform';
import type { FastifyRequest } from 'fastify';
import { Readable } from 'node:stream';
import { NOT_AN_IMAGE, TOO_LARGE } from '../photos/photos.service.js';
import { FileObjectStore } from '../storage/file-object.store.js';
import { ObjectStoreError, isObjectKey, uploadKey } from '../storage/object.store.js';
import { UploadsRepository } from './uploads.repository.js';

const NO_LONGER_VALID = 'This upload URL is no longer valid';

/**
 * The embedded vault's stand-in for a presigned S3 PUT: `PUT
 * /objects/uploads/<id>?expires=..&signature=..` stores the raw body as that
 * upload's object. The signature and expiry are checked first, the URL works
 * once, and a body over 10 MB is refused with 413 while it streams, so no
 * more than one chunk of it is ever held in memory. An upload that was still
 * streaming when the vault was erased is removed, not kept, and so is the
 * half-written file of one cut off or refused (FileObjectStore.writeUpload).
 * Registered only with the file store: in the distributed mode the browser
 * PUTs to the bucket.
 */
@Controller()
export class FileUploadController {
  constructor(
    private readonly store: FileObjectStore,
    private readonly uploads: UploadsRepository,
  ) {}

  @Put('objects/uploads/:id')
  @RouteConfig({ [RAW_BODY_ROUTE]: true })
  @HttpCode(200)
  async upload(@Param('id') id: string, @Query() query: Record<string, unknown>, @Req() request: FastifyRequest): Promise<void> {
    const key = uploadKey(id);
    if (!isObjectKey(key)) throw new NotFoundException('Not found');
    const signature = this.store.checkUploadSignature(key, query.expires, query.signature);
    if (signature === 'invalid') throw new ForbiddenException('This upload URL is not valid');
    if (signature === 'expired') throw new ForbiddenException('This upload URL has expired');
    if (Number(request.headers['content-length']) > PHOTO_MAX_BYTES) throw new PayloadTooLargeException(TOO_LARGE);
    // A JSON or text body was parsed by Fastify's own parsers: whatever it is, it is not an image.
    if (!(request.body instanceof Readable)) throw new UnsupportedMediaTypeException(NOT_AN_IMAGE);
    if (!(await this.uploads.markUploaded(key))) throw new ForbiddenException('This upload URL has already been used or has expired');
    try {
      await this.store.writeUpload(key, request.body, PHOTO_MAX_BYTES);
    } catch (error) {
      // An erase that emptied the half-written files is why it stopped: the URL is void, as below.
      if (!(await this.uploads.stillRecorded(key, 'uploaded'))) throw new ForbiddenException(NO_LONGER_VALID);
      if (error instanceof ObjectStoreError && error.reason === 'too-large') throw new PayloadTooLargeException(TOO_LARGE);
      if (error instanceof ObjectStoreError && error.reason === 'interrupted') throw new BadRequestException('The upload was interrupted');
      throw error;
    }
    // An erase since the PUT began removed the upload's row (or the sweep discarded it, its URL long expired);
    // either may have emptied the folder before this file landed.
    if (!(await this.uploads.stillRecorded(key, 'uploaded'))) {
      await this.store.remove(key);
      throw new ForbiddenException(NO_LONGER_VALID);
    }
  }
}
