import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import { PHOTO_MAX_BYTES } from '@vault/contracts';

/** How long the buffer is kept after its last use: an import's photos come one after another, a second or so apart. */
const KEPT_IDLE_MS = 30_000;

/**
 * The one buffer a photo is read into to be checked and stored (an upload
 * registered, a photo restored or imported), lent to one of them at a time.
 * A buffer of its own for each photo (10 MB) was freed only when a scavenge
 * found it dead, which V8 puts off until 32 MB of such buffers have been
 * allocated, and once glibc had freed one block that large it served the
 * next ones from its main heap, which it keeps: importing 200 photos raised
 * the vault's resident memory by 20 MB more than reading them all into one.
 * The buffer goes 30 s after its last use, so a vault at rest does not
 * keep it.
 */
@Injectable()
export class PhotoBuffer implements OnModuleDestroy {
  private buffer: Buffer | undefined;
  private turn: Promise<unknown> = Promise.resolve();
  private release: NodeJS.Timeout | undefined;

  /** Runs `work` with the buffer once every earlier lender is done with it; `work` must not keep it (nor a view of it) after it settles. */
  lend<T>(work: (buffer: Buffer) => Promise<T>): Promise<T> {
    const done = this.turn.then(() => {
      clearTimeout(this.release);
      this.buffer ??= Buffer.allocUnsafeSlow(PHOTO_MAX_BYTES);
      return work(this.buffer);
    });
    this.turn = done
      .catch(() => undefined)
      .then(() => {
        this.release = setTimeout(() => this.drop(), KEPT_IDLE_MS).unref();
      });
    return done;
  }

  onModuleDestroy(): void {
    clearTimeout(this.release);
    this.drop();
  }

  /** Wiped first: the last photo's bytes do not stay behind in memory the process gives back. */
  private drop(): void {
    this.buffer?.fill(0);
    this.buffer = undefined;
  }
}
