import { HttpException } from '@nestjs/common';

/**
 * Why an archive is not restored, as the owner reads it: the status (400 a
 * damaged or foreign archive, 409 a vault that is not empty, 413 too large,
 * 422 an archive of another version or one that contradicts itself) and one
 * plain sentence. Nothing was changed when it is thrown.
 */
export class ArchiveRefusal extends HttpException {
  constructor(status: 400 | 401 | 403 | 409 | 413 | 415 | 422, message: string) {
    super(message, status);
  }
}
