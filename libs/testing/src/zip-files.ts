/** A zip of `files` (name → bytes or text), as any zip tool makes it: each file deflated, dated `modified`. */
export async function zipOf(files: Record<string, Buffer | string>, modified = new Date('2023-05-06T07:08:09Z')): Promise<Buffer> {
  // yazl is CommonJS: its module object is the default export.
  const { ZipFile } = (await import('yazl')).default;
  const zip = new ZipFile();
  for (const [name, content] of Object.entries(files)) zip.addBuffer(Buffer.isBuffer(content) ? content : Buffer.from(content), name, { mtime: modified });
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
