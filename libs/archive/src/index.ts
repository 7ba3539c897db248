// The vault's archive: the one file an export writes, a backup keeps and a
// restore reads (docs/development.md, "Words"). Its format and layout, the
// writer (VaultExporter), the reader and the importer (VaultImporter), its
// encryption, and where a photo's bytes are read from and written to; and
// the import of other apps' journals (JournalImporter, journal-import/). The
// gateway's routes, the CLI and the scheduled backup use it; the record kinds
// are ARCHIVE_RECORDS in @vault/contracts.
export { VaultExporter, type ExportOptions } from './vault-exporter.js';
export { VaultImporter } from './vault-importer.js';
export { JournalImporter, countedBytes, importDetail, importReportLines, type ImportProgressListener } from './journal-importer.js';
export { ArchiveRefusal } from './archive-refusal.js';
export { exportToFile, readPassphraseFile } from './export-file.js';
export { importJournalFromFile } from './journal-import-file.js';
export { openPhotoSource } from './photo-source.js';
