import { describe, expect, it } from '@jest/globals';
import { S3ObjectStore, type S3StoreOptions } from './s3-object.store.js';

// Signing is local: none of these touches a server.
const KEY = 'uploads/6f1c7a0e-4b8e-4f3a-9a7e-2b1d7c9e0f11';
const options: S3StoreOptions = {
  endpoint: 'http://minio.internal:9000',
  publicEndpoint: 'https://photos.vault.example',
  region: 'us-east-1',
  bucket: 'vault-photos',
  accessKeyId: 'access',
  secretAccessKey: 'secret-secret',
  forcePathStyle: true,
};

describe('S3 object store URLs', () => {
  it('signs browser uploads for the public endpoint and reads through the internal one', async () => {
    const store = new S3ObjectStore(options);
    const upload = new URL((await store.signUpload(KEY, 600)).url);
    expect(`${upload.origin}${upload.pathname}`).toBe(`https://photos.vault.example/vault-photos/${KEY}`);
    expect(upload.searchParams.get('X-Amz-Expires')).toBe('600');
    expect([...upload.searchParams.keys()].some((name) => /checksum/i.test(name))).toBe(false);
    const read = await store.locate('photos/6f1c7a0e-4b8e-4f3a-9a7e-2b1d7c9e0f11');
    expect(read.kind === 'url' && new URL(read.url).origin).toBe('http://minio.internal:9000');
  });

  it('signs each upload as a conditional write, and hands over the header the PUT must carry', async () => {
    const { url, headers } = await new S3ObjectStore(options).signUpload(KEY, 600);
    // Signed, not in the query: the bucket refuses the PUT without the header, and a second object under the key with it.
    expect(new URL(url).searchParams.get('X-Amz-SignedHeaders')).toBe('host;if-none-match');
    expect(headers).toEqual({ 'If-None-Match': '*' });
  });

  it('recognises only its own upload URLs: same endpoint, bucket and key shape', async () => {
    const store = new S3ObjectStore(options);
    const signed = (await store.signUpload(KEY, 600)).url;
    expect(await store.keyOfUploadUrl(signed)).toBe(KEY);
    expect(await store.keyOfUploadUrl(signed.split('?')[0])).toBe(KEY);
    for (const other of [
      signed.replace('https://photos.vault.example', 'https://evil.example'),
      signed.replace('/vault-photos/', '/other-bucket/'),
      signed.replace(KEY, 'photos/6f1c7a0e-4b8e-4f3a-9a7e-2b1d7c9e0f11'),
      signed.replace(KEY, `${KEY}/../x`),
      `http://minio.internal:9000/vault-photos/${KEY}`,
      '/objects/uploads/6f1c7a0e-4b8e-4f3a-9a7e-2b1d7c9e0f11',
      'not a url',
    ]) {
      expect(await store.keyOfUploadUrl(other)).toBeUndefined();
    }
  });

  it('works with virtual-hosted buckets too', async () => {
    const store = new S3ObjectStore({
      ...options,
      endpoint: 'https://s3.eu-west-1.amazonaws.com',
      publicEndpoint: undefined,
      region: 'eu-west-1',
      forcePathStyle: false,
    });
    const upload = new URL((await store.signUpload(KEY, 600)).url);
    expect(upload.host).toBe('vault-photos.s3.eu-west-1.amazonaws.com');
    expect(upload.pathname).toBe(`/${KEY}`);
    expect(await store.keyOfUploadUrl(upload.toString())).toBe(KEY);
  });
});
