import {
  HTTP_ROUTES,
  IMPORT_PROGRESS_HEADER,
  type ExportRequest,
  type HttpRoute,
  type JournalImportProgress,
  type JournalImportSummary,
  type RestoreSummary,
} from '@vault/contracts';
import { ApiError, callApi, parseReply, throwIfResNotOk } from './api';

export const EXPORT_ENDPOINT = HTTP_ROUTES.exportVault.path;

/** How far an export has come: bytes received so far (the archive is made as it streams, so its size is not known ahead). */
export type ExportProgress = (receivedBytes: number) => void;

/**
 * Asks for the owner's archive and reads it as it streams, reporting the
 * bytes received, then hands it to the browser as a download. A refusal
 * (wrong password: 403) throws an ApiError with the server's reason.
 */
export async function downloadExport(body: ExportRequest, onProgress: ExportProgress): Promise<{ name: string; bytes: number }> {
  const response = await fetch(EXPORT_ENDPOINT, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  await throwIfResNotOk(response);
  const name = /filename="([^"]+)"/.exec(response.headers.get('Content-Disposition') ?? '')?.[1] ?? 'vault-export.zip';
  const parts: Uint8Array[] = [];
  let bytes = 0;
  const reader = response.body!.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value);
    bytes += value.length;
    onProgress(bytes);
  }
  // The browser keeps a large Blob on disk, not in the page's memory.
  const url = URL.createObjectURL(new Blob(parts as BlobPart[], { type: response.headers.get('Content-Type') ?? 'application/zip' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
  return { name, bytes };
}

/**
 * Sends a file as the raw body of `route` (a restore into an empty vault,
 * another app's journal to import), with the upload's progress
 * (XMLHttpRequest: fetch reports none). Resolves with the route's answer; a
 * refusal rejects with an ApiError carrying the server's reason.
 */
export function uploadFile<Reply>(
  route: HttpRoute<never, Reply>,
  file: Blob,
  headers: Record<string, string>,
  onProgress: (fraction: number) => void,
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', route.path);
    request.setRequestHeader('Content-Type', 'application/octet-stream');
    for (const [name, value] of Object.entries(headers)) request.setRequestHeader(name, value);
    request.upload.onprogress = (event) => event.lengthComputable && onProgress(event.loaded / event.total);
    request.onerror = () => reject(new Error('The upload failed: check the connection and try again'));
    request.onload = () => {
      if (request.status === 200) {
        resolve(parseReply(route, request.responseText));
      } else {
        reject(
          new ApiError({
            status: request.status,
            statusText: request.statusText,
            body: request.responseText,
            contentType: request.getResponseHeader('Content-Type') ?? '',
          }),
        );
      }
    };
    request.send(file);
  });
}

/** An export back into an empty vault (the owner is signed in to it): the counts restored. */
export async function uploadRestore(file: Blob, passphrase: string | undefined, onProgress: (fraction: number) => void): Promise<RestoreSummary['restored']> {
  // URI-encoded: a header carries Latin-1 only, a passphrase may be any text.
  const headers: Record<string, string> = passphrase ? { 'X-Vault-Passphrase': encodeURIComponent(passphrase) } : {};
  return (await uploadFile(HTTP_ROUTES.restoreVault, file, headers, onProgress)).restored;
}

/** Another app's journal added to this vault: what was added, already there, and left out. */
export function uploadJournalImport(file: Blob, progressId: string | undefined, onProgress: (fraction: number) => void): Promise<JournalImportSummary> {
  return uploadFile(HTTP_ROUTES.importJournal, file, progressId ? { [IMPORT_PROGRESS_HEADER]: progressId } : {}, onProgress);
}

/** A progress record for the import about to be sent; undefined when the server cannot keep one (the import goes on without it). */
export async function startImportProgress(): Promise<string | undefined> {
  try {
    return (await callApi(HTTP_ROUTES.startJournalImportProgress)).id;
  } catch {
    return undefined;
  }
}

/** Where the import stands on the server: stored entries and photos so far. */
export function readImportProgress(id: string): Promise<JournalImportProgress> {
  return callApi(HTTP_ROUTES.journalImportProgress, { params: { id } });
}

export function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
