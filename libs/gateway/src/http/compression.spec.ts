import { describe, expect, it } from '@jest/globals';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { acceptedEncoding, compressedAnswer } from './compression.js';

describe('acceptedEncoding', () => {
  it('prefers br, then gzip, and honours q=0', () => {
    expect(acceptedEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(acceptedEncoding('gzip')).toBe('gzip');
    expect(acceptedEncoding('br;q=0, gzip;q=0.5')).toBe('gzip');
    expect(acceptedEncoding('identity')).toBeUndefined();
    expect(acceptedEncoding(undefined)).toBeUndefined();
  });
});

describe('compressedAnswer', () => {
  const big = JSON.stringify(Array.from({ length: 200 }, (_, i) => ({ id: i, title: `Target ${i}` })));
  const json = 'application/json; charset=utf-8';

  it('compresses a large JSON answer with the encoding the client prefers', async () => {
    const br = await compressedAnswer(big, json, 'gzip, br');
    expect(br?.encoding).toBe('br');
    expect(brotliDecompressSync(br!.body).toString()).toBe(big);
    const gz = await compressedAnswer(big, json, 'gzip');
    expect(gunzipSync(gz!.body).toString()).toBe(big);
    expect(gz!.body.length).toBeLessThan(big.length / 3);
  });

  it('counts an answer by its bytes, not its characters', async () => {
    const accented = JSON.stringify({ title: 'é'.repeat(600) });
    expect(accented.length).toBeLessThan(1024);
    expect((await compressedAnswer(accented, json, 'gzip'))?.encoding).toBe('gzip');
    expect(await compressedAnswer(JSON.stringify({ title: 'e'.repeat(600) }), json, 'gzip')).toBeUndefined();
  });

  it('leaves small answers, other types and clients without an encoding alone', async () => {
    expect(await compressedAnswer(big, json, undefined)).toBeUndefined();
    expect(await compressedAnswer('{"ok":true}', json, 'br')).toBeUndefined();
    expect(await compressedAnswer('x'.repeat(5000), 'text/plain; charset=utf-8', 'br')).toBeUndefined();
    expect(await compressedAnswer(Buffer.alloc(5000), json, 'br')).toBeUndefined();
  });
});
