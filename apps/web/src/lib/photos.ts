import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { HTTP_ROUTES, PHOTO_CONTENT_TYPES, PHOTO_MAX_BYTES, type Photo } from '@vault/contracts';
import { callApi, serverReason } from './api';
import { routeQuery } from './route-query';
import { toast } from './toast';
import { handleUnauthorized, toastFailure } from './unauthorized';

const photosQuery = routeQuery(HTTP_ROUTES.photos);
export const PHOTOS_KEY = photosQuery.queryKey;

export const PHOTO_TYPE_MESSAGE = 'Only images can be uploaded: JPEG, PNG, GIF or WebP.';
/** "10 MB" in the owner's words: the limit is 10 MiB exactly. */
export const PHOTO_MAX_MB = PHOTO_MAX_BYTES / (1024 * 1024);
export const PHOTO_SIZE_MESSAGE = `The photo is larger than ${PHOTO_MAX_MB} MB (${PHOTO_MAX_BYTES.toLocaleString('en-US')} bytes).`;
export const PHOTO_EMPTY_MESSAGE = 'The file is empty.';

/** Checks a chosen file before any upload starts: the reason it is refused, or null when it may be uploaded. */
export function photoFileProblem(file: Pick<File, 'type' | 'size'>): string | null {
  if (!(PHOTO_CONTENT_TYPES as readonly string[]).includes(file.type.toLowerCase())) return PHOTO_TYPE_MESSAGE;
  if (file.size > PHOTO_MAX_BYTES) return PHOTO_SIZE_MESSAGE;
  if (file.size === 0) return PHOTO_EMPTY_MESSAGE;
  return null;
}

/** "1.2 MB", "350 KB", "12 B". */
export function formatBytes(size: number): string {
  if (size >= 1024 * 1024) return `${(size / (1024 * 1024)).toFixed(1)} MB`;
  if (size >= 1024) return `${Math.round(size / 1024)} KB`;
  return `${size} B`;
}

/** Whether a URL points at another origin (a presigned storage URL in distributed mode). */
export function isCrossOrigin(url: string, origin = window.location.origin): boolean {
  return new URL(url, origin).origin !== origin;
}

/**
 * PUTs the file straight to the storage URL with its own Content-Type and the
 * headers the vault handed over with the URL (a bucket's URL is signed with
 * them). XMLHttpRequest for its upload progress events; no credentials across origins.
 */
export function putFile(url: string, file: File, onProgress: (percent: number) => void, headers: Record<string, string> = {}): Promise<void> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('PUT', url);
    xhr.withCredentials = false;
    xhr.setRequestHeader('Content-Type', file.type);
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(Math.round((event.loaded / event.total) * 100));
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress(100);
        resolve();
      } else {
        reject(new Error(`${xhr.status}: ${xhr.responseText || xhr.statusText}`));
      }
    };
    xhr.onerror = () => reject(new Error('The upload could not reach the storage'));
    xhr.onabort = () => reject(new Error('The upload was cancelled'));
    xhr.send(file);
  });
}

/** What the owner chose in the upload dialog. */
export interface PhotoUpload {
  file: File;
  /** Keep the photo as taken; otherwise the vault removes its location data (GPS) when it registers it. */
  keepLocation?: boolean;
}

/** Request an upload URL, PUT the file there, then register it (spec section 4). */
export async function uploadPhoto({ file, keepLocation }: PhotoUpload, onProgress: (percent: number) => void): Promise<Photo> {
  // The answer's uploadHeaders: what its PUT must carry besides Content-Type (a bucket's `If-None-Match: *`).
  const { uploadURL, uploadHeaders } = await callApi(HTTP_ROUTES.uploadParameters);
  await putFile(uploadURL, file, onProgress, uploadHeaders);
  return callApi(HTTP_ROUTES.registerPhoto, { body: { photoURL: uploadURL, ...(keepLocation ? { keepLocation: true } : {}) } });
}

/** Every stored photo, newest first. */
export function usePhotos() {
  return useQuery(photosQuery);
}

export function useUploadPhoto(onProgress: (percent: number) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (upload: PhotoUpload) => uploadPhoto(upload, onProgress),
    onSuccess: async () => {
      toast({ title: 'Photo Uploaded', description: 'Your photo has been securely uploaded to the vault.' });
      await queryClient.invalidateQueries({ queryKey: PHOTOS_KEY });
    },
    onError: (error) => {
      if (handleUnauthorized(error)) return;
      toast({
        title: 'Upload Failed',
        description: 'Failed to secure photo upload. Please try again.',
        detail: serverReason(error),
        variant: 'destructive',
      });
    },
  });
}

/** Deletes a photo for good. */
export function useDeletePhoto() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => {
      await callApi(HTTP_ROUTES.deletePhoto, { params: { id } });
    },
    onSuccess: async () => {
      toast({ title: 'Photo Deleted', description: 'The photo has been erased from the vault.' });
      await queryClient.invalidateQueries({ queryKey: PHOTOS_KEY });
    },
    onError: (error) => toastFailure(error, 'Failed to delete photo'),
  });
}
