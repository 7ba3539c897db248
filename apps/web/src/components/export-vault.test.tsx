import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ExportVaultSection } from './export-vault';
import { ImportJournalSection } from './import-journal';
import { RestoreVault } from './restore-vault';
import { json, mockFetch, renderWithProviders, text } from '../test/utils';

/** A streamed answer whose chunks the test releases one by one. */
function streamedArchive() {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({
    start: (c) => {
      controller = c;
    },
  });
  const response = new Response(body, {
    status: 200,
    headers: { 'Content-Type': 'application/zip', 'Content-Disposition': 'attachment; filename="vault-export-2026-11-24.zip"' },
  });
  return { response, push: (size: number) => controller.enqueue(new Uint8Array(size)), end: () => controller.close() };
}

beforeEach(() => {
  vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:archive'), revokeObjectURL: vi.fn() }));
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('EXPORT VAULT', () => {
  it('sends the password (and passphrase) again, shows the bytes received while the archive streams, then saves it', async () => {
    const user = userEvent.setup();
    const archive = streamedArchive();
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    const fetchMock = mockFetch({ 'POST /api/settings/export': () => archive.response });
    renderWithProviders(<ExportVaultSection open onOpenChange={() => {}} />);
    await user.type(screen.getByLabelText('Owner password'), 'the owner password');
    await user.type(screen.getByLabelText('Passphrase (optional, encrypts the archive)'), 'a long passphrase');
    await user.click(screen.getByRole('button', { name: 'EXPORT VAULT' }));
    expect(JSON.parse(String(fetchMock.mock.calls[0][1]?.body))).toEqual({ password: 'the owner password', passphrase: 'a long passphrase' });
    archive.push(3 * 1024 * 1024);
    expect(await screen.findByText('EXPORTING... 3.0 MB received')).toBeTruthy();
    archive.push(1024 * 1024);
    expect(await screen.findByText('EXPORTING... 4.0 MB received')).toBeTruthy();
    archive.end();
    expect(await screen.findByText('Vault Exported')).toBeTruthy();
    expect(screen.getByText('vault-export-2026-11-24.zip (4.0 MB)')).toBeTruthy();
    expect(click).toHaveBeenCalledTimes(1);
    expect((screen.getByLabelText('Owner password') as HTMLInputElement).value).toBe('');
  });

  it("shows the server's reason when the password is refused, and saves nothing", async () => {
    const user = userEvent.setup();
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    mockFetch({ 'POST /api/settings/export': () => text('password: is not the owner password', 403) });
    renderWithProviders(<ExportVaultSection open onOpenChange={() => {}} />);
    await user.type(screen.getByLabelText('Owner password'), 'wrong');
    await user.click(screen.getByRole('button', { name: 'EXPORT VAULT' }));
    expect((await screen.findByRole('alert')).textContent).toContain('password: is not the owner password');
    expect(click).not.toHaveBeenCalled();
    expect((screen.getByRole('button', { name: 'EXPORT VAULT' }) as HTMLButtonElement).disabled).toBe(false);
  });
});

/** XMLHttpRequest as the page uses it: the test answers, and reports upload progress. */
class FakeUpload {
  static last: FakeUpload;
  upload: { onprogress?: (event: { lengthComputable: boolean; loaded: number; total: number }) => void } = {};
  headers: Record<string, string> = {};
  status = 0;
  statusText = '';
  responseText = '';
  body: unknown;
  onload?: () => void;
  onerror?: () => void;
  constructor() {
    FakeUpload.last = this;
  }
  open(method: string, url: string) {
    this.headers[':request'] = `${method} ${url}`;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  getResponseHeader() {
    return 'text/plain';
  }
  send(body: unknown) {
    this.body = body;
  }
  answer(status: number, body: string) {
    Object.assign(this, { status, responseText: body });
    this.onload?.();
  }
}

describe('RESTORE A VAULT', () => {
  it('signs in to the empty vault, uploads the archive with its progress and passphrase, and says what came back', async () => {
    const user = userEvent.setup();
    vi.stubGlobal('XMLHttpRequest', FakeUpload);
    const fetchMock = mockFetch({ 'POST /api/login': () => json({ username: 'owner', name: 'Owner' }) });
    const restored = vi.fn();
    renderWithProviders(<RestoreVault username="owner" onRestored={restored} />);
    await user.click(screen.getByText('RESTORE A VAULT'));
    const file = new File([new Uint8Array(10)], 'vault-export.zip.age');
    await user.upload(screen.getByLabelText('Archive (.zip or .zip.age)'), file);
    await user.type(screen.getByLabelText('Owner password'), 'new vault password');
    await user.type(screen.getByLabelText('Passphrase (if the archive is encrypted)'), 'pass phrase ünicode');
    await user.click(screen.getByRole('button', { name: 'RESTORE' }));
    await waitFor(() => expect(FakeUpload.last?.body).toBe(file));
    expect(JSON.parse(String(fetchMock.mock.calls[0][1]?.body))).toEqual({ username: 'owner', password: 'new vault password' });
    expect(FakeUpload.last.headers).toMatchObject({ ':request': 'POST /api/settings/restore', 'X-Vault-Passphrase': 'pass%20phrase%20%C3%BCnicode' });
    FakeUpload.last.upload.onprogress?.({ lengthComputable: true, loaded: 5, total: 10 });
    const uploadBar = (await screen.findByRole('progressbar', { name: 'Restore upload' })) as HTMLProgressElement;
    await waitFor(() => expect(uploadBar.value).toBe(0.5));
    FakeUpload.last.answer(200, JSON.stringify({ restored: { journal: 1000, photos: 20 } }));
    expect(await screen.findByText('Restored 1000 journal entries and 20 photos.')).toBeTruthy();
    expect(restored).toHaveBeenCalledTimes(1);
  });

  it('shows why a vault refuses the archive', async () => {
    const user = userEvent.setup();
    vi.stubGlobal('XMLHttpRequest', FakeUpload);
    mockFetch({ 'POST /api/login': () => json({ username: 'owner', name: 'Owner' }) });
    renderWithProviders(<RestoreVault username="owner" onRestored={vi.fn()} />);
    await user.click(screen.getByText('RESTORE A VAULT'));
    await user.upload(screen.getByLabelText('Archive (.zip or .zip.age)'), new File([new Uint8Array(4)], 'a.zip'));
    await user.type(screen.getByLabelText('Owner password'), 'new vault password');
    await user.click(screen.getByRole('button', { name: 'RESTORE' }));
    await waitFor(() => expect(FakeUpload.last?.body).toBeDefined());
    FakeUpload.last.answer(409, 'This vault is not empty (it holds journal): a restore goes into an empty vault only');
    expect((await screen.findByRole('alert')).textContent).toContain('This vault is not empty (it holds journal): a restore goes into an empty vault only');
  });
});

describe('IMPORT JOURNAL', () => {
  it('uploads the export with its progress, then the server’s count of what it stored, then says what was added, already there and left out', async () => {
    const user = userEvent.setup();
    vi.stubGlobal('XMLHttpRequest', FakeUpload);
    const counts = (stage: string, entries: number, photos: [number, number]) => ({
      stage,
      entries: { stored: entries, total: 1000 },
      photos: { stored: photos[0], total: photos[1] },
    });
    // What the server's record says, as the test moves it on.
    let serverSays = counts('uploading', 0, [0, 0]);
    const fetchMock = mockFetch({
      'POST /api/settings/import-journal/progress': () => json({ id: 'progress-7' }, 201),
      'GET /api/settings/import-journal/progress/progress-7': () => json(serverSays),
    });
    renderWithProviders(<ImportJournalSection />);
    await user.click(screen.getByText('IMPORT JOURNAL'));
    expect((screen.getByRole('button', { name: 'IMPORT' }) as HTMLButtonElement).disabled).toBe(true);
    const file = new File([new Uint8Array(10)], 'Day One Export.zip');
    await user.upload(screen.getByLabelText('Export file (.zip)'), file);
    await user.click(screen.getByRole('button', { name: 'IMPORT' }));
    await waitFor(() => expect(FakeUpload.last?.body).toBe(file));
    expect(FakeUpload.last.headers).toMatchObject({ ':request': 'POST /api/settings/import-journal', 'x-vault-import-progress': 'progress-7' });
    FakeUpload.last.upload.onprogress?.({ lengthComputable: true, loaded: 5, total: 10 });
    // The bar may be there already at 0 (the upload began): its value follows the progress event's render.
    const uploadBar = (await screen.findByRole('progressbar', { name: 'Import upload' })) as HTMLProgressElement;
    await waitFor(() => expect(uploadBar.value).toBe(0.5));
    FakeUpload.last.upload.onprogress?.({ lengthComputable: true, loaded: 10, total: 10 });
    expect(await screen.findByText('STORING ENTRIES AND PHOTOS...')).toBeTruthy();
    serverSays = counts('reading', 0, [0, 0]);
    expect(await screen.findByText('READING THE EXPORT...')).toBeTruthy();
    serverSays = counts('storing', 400, [0, 0]);
    expect(await screen.findByText('STORING... 400 of 1000 entries')).toBeTruthy();
    serverSays = counts('storing', 1000, [20, 50]);
    expect(await screen.findByText('STORING... 1000 of 1000 entries, 20 of 50 photos')).toBeTruthy();
    expect(((await screen.findByRole('progressbar', { name: 'Import storing' })) as HTMLProgressElement).value).toBe(1020);
    const progressReads = () => fetchMock.mock.calls.filter(([url]) => String(url).endsWith('/progress/progress-7')).length;
    expect(progressReads()).toBeGreaterThanOrEqual(4);
    const skipped = [{ source: 'Journal.json, entry 0A', reason: 'the video 0B: the vault keeps photos only' }];
    FakeUpload.last.answer(200, JSON.stringify({ format: 'day-one', entries: 998, alreadyThere: 2, photos: 50, skipped, skippedCount: 3 }));
    // In the panel, and in a toast for an owner who closed it meanwhile.
    expect(await screen.findAllByText('Imported 998 entries and 50 photos; 2 entries were already in the vault; 3 items left out.')).toHaveLength(2);
    const leftOut = screen.getByRole('list', { name: 'Left out' });
    expect(leftOut.textContent).toContain('Journal.json, entry 0A: the video 0B: the vault keeps photos only');
    expect(leftOut.textContent).toContain('and 2 more');
    // Done: the progress is read no more. A read already due as the answer came may still go out (a loaded
    // machine runs timers late); after it, nothing, where a poll still running would read twice a window.
    const readsAtAnswer = progressReads();
    const wait = () => new Promise((resolve) => setTimeout(resolve, 900));
    await wait();
    const readsAfterAnswer = progressReads();
    expect(readsAfterAnswer - readsAtAnswer).toBeLessThanOrEqual(1);
    await wait();
    expect(progressReads()).toBe(readsAfterAnswer);
  });

  it('shows the server’s stage once it has the file, even when the browser reports no end of the upload', async () => {
    const user = userEvent.setup();
    vi.stubGlobal('XMLHttpRequest', FakeUpload);
    mockFetch({
      'POST /api/settings/import-journal/progress': () => json({ id: 'progress-8' }, 201),
      'GET /api/settings/import-journal/progress/progress-8': () =>
        json({ stage: 'storing', entries: { stored: 2, total: 3 }, photos: { stored: 0, total: 0 } }),
    });
    renderWithProviders(<ImportJournalSection />);
    await user.click(screen.getByText('IMPORT JOURNAL'));
    await user.upload(screen.getByLabelText('Export file (.zip)'), new File([new Uint8Array(4)], 'notes.zip'));
    await user.click(screen.getByRole('button', { name: 'IMPORT' }));
    expect(await screen.findByText('STORING... 2 of 3 entries')).toBeTruthy();
    expect(screen.queryByRole('progressbar', { name: 'Import upload' })).toBeNull();
  });

  it('imports without the server’s count when it cannot keep a progress record', async () => {
    const user = userEvent.setup();
    vi.stubGlobal('XMLHttpRequest', FakeUpload);
    mockFetch({ 'POST /api/settings/import-journal/progress': () => text('The session store is unavailable', 503, 'Service Unavailable') });
    renderWithProviders(<ImportJournalSection />);
    await user.click(screen.getByText('IMPORT JOURNAL'));
    await user.upload(screen.getByLabelText('Export file (.zip)'), new File([new Uint8Array(4)], 'notes.zip'));
    await user.click(screen.getByRole('button', { name: 'IMPORT' }));
    await waitFor(() => expect(FakeUpload.last?.body).toBeDefined());
    expect(FakeUpload.last.headers['x-vault-import-progress']).toBeUndefined();
    FakeUpload.last.upload.onprogress?.({ lengthComputable: true, loaded: 4, total: 4 });
    expect(await screen.findByText('STORING ENTRIES AND PHOTOS...')).toBeTruthy();
    FakeUpload.last.answer(200, JSON.stringify({ format: 'markdown', entries: 2, alreadyThere: 0, photos: 0, skipped: [], skippedCount: 0 }));
    expect(await screen.findAllByText('Imported 2 entries and 0 photos.')).toHaveLength(2);
  });

  it('shows why the vault refuses the file', async () => {
    const user = userEvent.setup();
    vi.stubGlobal('XMLHttpRequest', FakeUpload);
    mockFetch({});
    renderWithProviders(<ImportJournalSection />);
    await user.click(screen.getByText('IMPORT JOURNAL'));
    await user.upload(screen.getByLabelText('Export file (.zip)'), new File([new Uint8Array(4)], 'notes.zip'));
    await user.click(screen.getByRole('button', { name: 'IMPORT' }));
    await waitFor(() => expect(FakeUpload.last?.body).toBeDefined());
    FakeUpload.last.answer(400, 'Journal.json is not valid JSON (Unexpected end of JSON input)');
    expect((await screen.findByRole('alert')).textContent).toContain('Journal.json is not valid JSON');
  });
});
