import { expect, it } from '@jest/globals';
import { ApiClient, htmlFile, textFile, tinyPng, twelveMegabytes, TEST_OWNER as OWNER } from '@vault/testing';
import sharp from 'sharp';

/**
 * The photo vault through the gateway, as a browser does it: ask for an
 * upload URL, PUT the bytes straight to it (the gateway's own upload route in
 * embedded mode, a presigned S3 URL in distributed mode), register, then read.
 */
export function describeMediaApi(baseUrl: () => string) {
  const signedIn = async () => {
    const client = new ApiClient(baseUrl());
    expect((await client.login(OWNER.username, OWNER.password)).status).toBe(200);
    return client;
  };

  const upload = async (client: ApiClient, bytes: Buffer, contentType: string) => {
    const issued = await client.request('POST', '/api/objects/upload');
    expect(issued.status).toBe(200);
    const uploadURL: string = issued.json.uploadURL;
    const sameOrigin = uploadURL.startsWith('/');
    const put = await fetch(sameOrigin ? baseUrl() + uploadURL : uploadURL, {
      method: 'PUT',
      body: bytes as BodyInit,
      // Every header handed over with the URL: a bucket's is signed with `If-None-Match: *` (one object per URL).
      headers: { 'content-type': contentType, ...issued.json.uploadHeaders, ...(sameOrigin ? { cookie: client.sessionCookie!, origin: baseUrl() } : {}) },
    });
    return { uploadURL, put };
  };

  it('uploads a real PNG, registers it, and serves it only to the owner with its sniffed type', async () => {
    const client = await signedIn();
    expect((await new ApiClient(baseUrl()).request('POST', '/api/objects/upload')).status).toBe(401);
    const { uploadURL, put } = await upload(client, tinyPng(), 'image/png');
    expect(put.status).toBe(200);
    const registered = await client.request('PUT', '/api/photos', { photoURL: uploadURL });
    expect(registered.status).toBe(200);
    expect(registered.json.objectPath).toMatch(/^\/objects\/photos\//);

    const read = await fetch(baseUrl() + registered.json.objectPath, { headers: { cookie: client.sessionCookie! } });
    expect([read.status, read.headers.get('content-type'), read.headers.get('x-content-type-options')]).toEqual([200, 'image/png', 'nosniff']);
    expect(Buffer.from(await read.arrayBuffer()).equals(tinyPng())).toBe(true);
    expect((await new ApiClient(baseUrl()).request('GET', registered.json.objectPath)).status).toBe(401);
    expect((await client.request('GET', '/api/photos')).json[0]).toMatchObject({ id: registered.json.id, objectPath: registered.json.objectPath });

    expect((await client.request('DELETE', `/api/photos/${registered.json.id}`)).status).toBe(200);
    expect((await client.request('GET', registered.json.objectPath)).status).toBe(404);
  });

  it('serves a photo without its GPS position, inline, under a policy that runs nothing', async () => {
    const client = await signedIn();
    const jpeg = await sharp({ create: { width: 32, height: 16, channels: 3, background: 'teal' } })
      .jpeg()
      .withExif({ IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 0/1' } })
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const { uploadURL } = await upload(client, jpeg, 'image/jpeg');
    const registered = await client.request('PUT', '/api/photos', { photoURL: uploadURL });
    expect(registered.status).toBe(200);
    const read = await fetch(baseUrl() + registered.json.objectPath, { headers: { cookie: client.sessionCookie! } });
    expect(read.status).toBe(200);
    expect({
      disposition: read.headers.get('content-disposition'),
      policy: read.headers.get('content-security-policy'),
      sniffing: read.headers.get('x-content-type-options'),
    }).toEqual({ disposition: 'inline', policy: "default-src 'none'; frame-ancestors 'none'; sandbox", sniffing: 'nosniff' });
    const served = Buffer.from(await read.arrayBuffer());
    const rational = Buffer.alloc(24);
    for (const [i, value] of [51, 1, 30, 1, 0, 1].entries()) rational.writeUInt32LE(value, i * 4);
    expect([jpeg.includes(rational), served.includes(rational)]).toEqual([true, false]);
    expect((await sharp(served).metadata()).orientation).toBe(6);

    const polyglot = Buffer.concat([jpeg, Buffer.from('<html><script>alert(1)</script></html>')]);
    const refused = await client.request('PUT', '/api/photos', { photoURL: (await upload(client, polyglot, 'image/jpeg')).uploadURL });
    expect([refused.status, refused.text]).toEqual([415, 'The file is not an image (jpeg, png, gif or webp)']);
  });

  it('refuses a 12 MB file, a text file named .png and HTML sent as image/png, keeping none of them', async () => {
    const client = await signedIn();
    const before = (await client.request('GET', '/api/photos')).json.length;
    for (const [bytes, status] of [
      [textFile(), 415],
      [htmlFile(), 415],
    ] as const) {
      const { uploadURL } = await upload(client, bytes, 'image/png');
      const refused = await client.request('PUT', '/api/photos', { photoURL: uploadURL });
      expect([refused.status, refused.text]).toEqual([status, 'The file is not an image (jpeg, png, gif or webp)']);
    }
    const big = await upload(client, twelveMegabytes(), 'image/png');
    // Refused at the door (413) by the embedded route, or at registration after a presigned PUT.
    if (big.put.status === 200) {
      const refused = await client.request('PUT', '/api/photos', { photoURL: big.uploadURL });
      expect([refused.status, refused.text]).toEqual([413, 'The photo is larger than 10 MB']);
    } else {
      expect(big.put.status).toBe(413);
    }
    expect((await client.request('GET', '/api/photos')).json).toHaveLength(before);
    expect((await client.request('PUT', '/api/photos', { photoURL: 'https://elsewhere.example/x.png' })).status).toBe(400);
  });
}
