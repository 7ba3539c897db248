export * from './media.module.js';
export * from './media.options.js';
export * from './media-eraser.js';
export * from './database.js';
export { FILE_UPLOAD_PATH } from './storage/file-object.store.js';
export { MEDIA_ARCHIVE_TABLES } from './archive/media-archive.tables.js';
