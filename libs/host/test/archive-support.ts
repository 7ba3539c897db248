import { expect } from '@jest/globals';
import { ApiClient, numberedPng } from '@vault/testing';
import { IMPORT_PROGRESS_HEADER, type JournalImportProgress } from '@vault/contracts';
export { zipOf } from '@vault/testing';
import yauzl from 'yauzl';
import { OWNER } from './stack.js';

/** Text a journal must keep exactly: several scripts, emoji, line breaks, tabs and trailing spaces. */
export const journalText = (i: number) => `Entry ${i}: Überprüfung — 日本語のメモ 🗝️\nline two\r\n\tindented, trailing  \n\n«${'ß'.repeat(i % 7)}» ${i}`;

/** Fills a vault through its API with every kind of record the owner keeps. */
export async function fillVault(url: string, options: { journalEntries: number; photos: number }) {
  const owner = new ApiClient(url);
  expect((await owner.login(OWNER.username, OWNER.password)).status).toBe(200);
  const ok = async (method: string, path: string, body?: unknown) => {
    const answer = await owner.request(method, path, body);
    if (answer.status >= 300) throw new Error(`${method} ${path}: ${answer.status} ${answer.text}`);
    return answer.json;
  };
  const target = await ok('POST', '/api/targets', { title: 'Cross the Alps', description: 'Before the snow\nall of it' });
  await ok('POST', '/api/targets', { title: 'Plain target' });
  await ok('PATCH', `/api/targets/${target.id}`, { completed: true });
  await ok('POST', '/api/weekly-templates', { title: 'Morning drill', time: '06:30', dayOfWeek: 1, description: 'Every Monday' });
  await ok('POST', '/api/weekly-templates', { title: 'One-off briefing', time: '09:00', dayOfWeek: 1, isRepeating: false });
  const items = await ok('POST', '/api/schedule/apply-weekly-template', { date: '2026-11-23' });
  await ok('PATCH', `/api/schedule/${items[0].id}`, { completed: true });
  await ok('POST', '/api/activities', { title: 'Fencing', description: 'Sabre' });
  const study = await ok('POST', '/api/studies', { subject: 'Artillery', endGoal: 'Master the 12-pounder' });
  await ok('POST', '/api/studies', { subject: 'Geography', endGoal: 'Every road to Vienna' });
  await ok('PATCH', `/api/studies/${study.id}`, { completed: true });
  await ok('POST', '/api/bonaparte/subtract', { amount: 1234.56 });
  for (let i = 0; i < options.journalEntries; i++) {
    await ok('POST', '/api/journal', i % 3 === 0 ? { content: journalText(i) } : { title: `Jour ${i} — été ☀️`, content: journalText(i) });
  }
  for (let i = 0; i < options.photos; i++) {
    const { uploadURL, uploadHeaders } = await ok('POST', '/api/objects/upload');
    // The embedded vault's upload URL is a path on its own origin, for the signed-in browser.
    const sameOrigin = uploadURL.startsWith('/');
    const put = await fetch(sameOrigin ? url + uploadURL : uploadURL, {
      method: 'PUT',
      body: numberedPng(i) as BodyInit,
      headers: { 'content-type': 'image/png', ...uploadHeaders, ...(sameOrigin ? { cookie: owner.sessionCookie!, origin: url } : {}) },
    });
    expect(put.status).toBe(200);
    await ok('PUT', '/api/photos', { photoURL: uploadURL });
  }
  return owner;
}

/** `POST /api/settings/export` as the web does it: the archive's bytes, or the refusal. */
export async function exportArchive(client: ApiClient, body: Record<string, unknown>) {
  const response = await fetch(`${client.baseUrl}/api/settings/export`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: client.sessionCookie ?? '', 'x-forwarded-for': client.address },
    body: JSON.stringify(body),
  });
  return { status: response.status, type: response.headers.get('content-type'), bytes: Buffer.from(await response.arrayBuffer()) };
}

/** `POST /api/settings/restore` with an archive as the body. */
export async function restoreArchive(client: ApiClient, archive: Buffer, passphrase?: string) {
  const response = await fetch(`${client.baseUrl}/api/settings/restore`, {
    method: 'POST',
    headers: {
      'content-type': 'application/octet-stream',
      cookie: client.sessionCookie ?? '',
      'x-forwarded-for': client.address,
      ...(passphrase ? { 'x-vault-passphrase': encodeURIComponent(passphrase) } : {}),
    },
    body: archive as BodyInit,
  });
  return { status: response.status, text: await response.text() };
}

/** Every file of a zip, by name. */
export function unzip(bytes: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(bytes, { lazyEntries: true }, (error, zip) => {
      if (error || !zip) return reject(error);
      const files = new Map<string, Buffer>();
      zip.on('error', reject);
      zip.on('end', () => resolve(files));
      zip.on('entry', (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (openError, stream) => {
          if (openError || !stream) return reject(openError);
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('end', () => {
            files.set(entry.fileName, Buffer.concat(chunks));
            zip.readEntry();
          });
        });
      });
      zip.readEntry();
    });
  });
}

/** The counts of what a fresh, empty vault holds: nothing of the owner's. */
export async function ownerData(client: ApiClient) {
  return {
    targets: (await client.request('GET', '/api/targets')).json.length,
    journal: (await client.request('GET', '/api/journal')).json.length,
    photos: (await client.request('GET', '/api/photos')).json.length,
    activities: (await client.request('GET', '/api/activities')).json.length,
    studies: (await client.request('GET', '/api/studies')).json.length,
    balance: (await client.request('GET', '/api/bonaparte/balance')).json.amount,
  };
}

/** `POST /api/settings/import-journal` with another app's export as the body. */
export async function importJournal(client: ApiClient, zip: Buffer, headers: Record<string, string> = {}) {
  const response = await fetch(`${client.baseUrl}/api/settings/import-journal`, {
    method: 'POST',
    headers: { 'content-type': 'application/zip', cookie: client.sessionCookie ?? '', 'x-forwarded-for': client.address, ...headers },
    body: zip as BodyInit,
  });
  const text = await response.text();
  return {
    status: response.status,
    text,
    json: response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : undefined,
    cacheControl: response.headers.get('cache-control'),
  };
}

/** An import with a progress record, and the record's readings taken every 50 ms while it runs: the answer, every reading, and the last. */
export async function importJournalWatched(client: ApiClient, zip: Buffer) {
  const started = await client.request('POST', '/api/settings/import-journal/progress');
  expect([started.status, started.headers.get('cache-control')]).toEqual([201, 'no-store']);
  const id = started.json.id as string;
  const read = async () => {
    const reading = await client.request('GET', `/api/settings/import-journal/progress/${id}`);
    expect([reading.status, reading.headers.get('cache-control')]).toEqual([200, 'no-store']);
    return reading.json as JournalImportProgress;
  };
  const readings: JournalImportProgress[] = [await read()];
  let running = true;
  const watching = (async () => {
    while (running) {
      readings.push(await read());
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  const answer = await importJournal(client, zip, { [IMPORT_PROGRESS_HEADER]: id });
  running = false;
  await watching;
  return { answer, readings, last: await read() };
}

/** Readings that only go forward: the stages in their order, each count never lower than before nor over its total. */
export function progressGoesForward(readings: JournalImportProgress[]): boolean {
  const order = ['uploading', 'reading', 'storing', 'done'];
  return readings.every((now, i) => {
    const before = readings[i - 1];
    const within = now.entries.stored <= now.entries.total && now.photos.stored <= now.photos.total;
    if (!before) return within;
    const stageForward = now.stage === 'failed' || order.indexOf(now.stage) >= order.indexOf(before.stage);
    return within && stageForward && now.entries.stored >= before.entries.stored && now.photos.stored >= before.photos.stored;
  });
}

/** Every journal entry, a page at a time, newest first. */
export async function allEntries(client: ApiClient): Promise<Array<{ id: string; title?: string; content: string; createdAt: string; updatedAt: string }>> {
  const entries = [];
  for (let offset = 0; ; offset += 500) {
    const page = (await client.request('GET', `/api/journal?limit=500&offset=${offset}`)).json;
    entries.push(...page);
    if (page.length < 500) return entries;
  }
}
