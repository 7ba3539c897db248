import { describe, expect, it, jest } from '@jest/globals';
import { PHOTO_MAX_BYTES } from '@vault/contracts';
import { PhotoBuffer } from './photo-buffer.js';

describe('PhotoBuffer', () => {
  it('lends one buffer of a photo’s largest size to one work at a time, in turn, a failed one included', async () => {
    const photos = new PhotoBuffer();
    const order: string[] = [];
    let release: () => void = () => undefined;
    const first = photos.lend(async (buffer) => {
      order.push('first starts');
      await new Promise<void>((resolve) => (release = resolve));
      order.push('first ends');
      return buffer;
    });
    const failing = photos.lend(async () => {
      order.push('failing runs');
      throw new Error('refused');
    });
    const third = photos.lend(async (buffer) => {
      order.push('third runs');
      return buffer;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(order).toEqual(['first starts']);
    release();
    const lent = await first;
    await expect(failing).rejects.toThrow('refused');
    expect(await third).toBe(lent);
    expect(lent.length).toBe(PHOTO_MAX_BYTES);
    expect(order).toEqual(['first starts', 'first ends', 'failing runs', 'third runs']);
    photos.onModuleDestroy();
  });

  it('wipes and lets go of the buffer once it has been idle for 30 s', async () => {
    jest.useFakeTimers();
    try {
      const photos = new PhotoBuffer();
      const lent = await photos.lend(async (buffer) => {
        buffer.write('a photo');
        return buffer;
      });
      await Promise.resolve();
      jest.advanceTimersByTime(29_000);
      expect(await photos.lend(async (buffer) => buffer)).toBe(lent);
      expect(lent.toString('latin1', 0, 7)).toBe('a photo');
      await Promise.resolve();
      jest.advanceTimersByTime(30_000);
      expect(lent.every((byte) => byte === 0)).toBe(true);
      expect(await photos.lend(async (buffer) => buffer)).not.toBe(lent);
      photos.onModuleDestroy();
    } finally {
      jest.useRealTimers();
    }
  });
});
