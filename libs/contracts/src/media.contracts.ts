import { z } from 'zod';
import { Empty, EntityId, IsoTimestamp } from './fields.js';
import { PHOTO_CONTENT_TYPES } from './limits.js';
import { defineRpc } from './rpc.js';

/**
 * How long an upload URL accepts its one PUT. The browser PUTs as soon as it
 * has the URL, so minutes are plenty; and the shorter it is, the sooner an
 * erase stops watching for what URLs issued before it bring in.
 */
export const UPLOAD_URL_TTL_SECONDS = 300;
export const PHOTO_PAGE_MAX = 500;

export const PhotoContentType = z.enum(PHOTO_CONTENT_TYPES);
export type PhotoContentType = z.infer<typeof PhotoContentType>;

export const Photo = z.object({
  id: z.string(),
  /** Where the signed-in owner's browser reads it: `/objects/photos/<id>`. */
  objectPath: z.string(),
  createdAt: IsoTimestamp,
  contentType: PhotoContentType,
  size: z.number(),
});
export type Photo = z.infer<typeof Photo>;

/**
 * Spec 3, "Upload parameters response": `uploadURL`, and the headers the PUT
 * must carry besides its Content-Type. In a bucket that is `If-None-Match: *`,
 * signed into the URL: the upload slot takes one object, never a second.
 */
export const UploadParameters = z.object({ uploadURL: z.string(), uploadHeaders: z.record(z.string(), z.string()) });
export type UploadParameters = z.infer<typeof UploadParameters>;

export const RegisterPhotoBody = z.object({
  photoURL: z
    .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') })
    .trim()
    .min(1, 'must not be empty')
    // A presigned URL carries its signature in the query: long, but never this long.
    .max(4096, 'must be at most 4096 characters'),
  /** The owner's choice to keep the photo as uploaded; otherwise its location data (EXIF GPS, XMP) is removed. */
  keepLocation: z.boolean({ error: 'must be true or false' }).optional(),
});
export type RegisterPhotoBody = z.input<typeof RegisterPhotoBody>;

/** A query-string number; the refusal names the field through its path (`limit: must be ...`). */
const PageNumber = (max: number) =>
  z
    .string({ error: 'must be a whole number' })
    .regex(/^\d{1,7}$/, 'must be a whole number')
    .transform(Number)
    .refine((value) => value <= max, `must be at most ${max}`)
    .optional();

/**
 * Where the gateway reads a photo's bytes from. Photos never travel through
 * the message bus (NATS carries at most 1 MB): media-svc authorises and
 * locates, the gateway streams. A URL is a short-lived presigned GET on the
 * bucket; a file is a path under the embedded vault's data folder.
 */
export const PhotoSource = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('url'), url: z.string() }),
  z.object({ kind: z.literal('file'), path: z.string() }),
]);
export type PhotoSource = z.infer<typeof PhotoSource>;

export const PhotoLocation = z.object({
  id: z.string(),
  contentType: PhotoContentType,
  size: z.number(),
  source: PhotoSource,
});
export type PhotoLocation = z.infer<typeof PhotoLocation>;

/** `POST /api/objects/upload`: a one-time URL for an object key the server chooses. */
export const RequestPhotoUpload = defineRpc({
  pattern: 'media.uploads.issue',
  request: Empty,
  response: UploadParameters,
});

/**
 * `PUT /api/photos`: registers what was uploaded to an issued URL. The answer
 * holds objectPath (spec 3) and the rest of the photo's record.
 */
export const RegisterPhoto = defineRpc({
  pattern: 'media.photos.register',
  request: RegisterPhotoBody,
  response: Photo,
  // Reads the whole object, decodes it to prove it is an image, and writes the photo.
  timeoutMs: 20_000,
});

/** `GET /api/photos`: every photo, newest first; `limit` and `offset` read it a page at a time. */
export const ListPhotos = defineRpc({
  pattern: 'media.photos.list',
  request: z.object({ limit: PageNumber(PHOTO_PAGE_MAX), offset: PageNumber(1_000_000) }),
  response: z.array(Photo),
});

/** `DELETE /api/photos/{id}`: the record and the object, for good. */
export const DeletePhoto = defineRpc({
  pattern: 'media.photos.delete',
  request: z.object({ id: EntityId }),
  response: z.object({ id: z.string() }),
  timeoutMs: 5000,
});

/** `GET /objects/photos/{id}`, first half: media-svc says where the bytes are; the gateway streams them. */
export const LocatePhoto = defineRpc({
  pattern: 'media.photos.locate',
  request: z.object({ id: EntityId }),
  response: PhotoLocation,
});
