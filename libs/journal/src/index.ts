export * from './journal.module.js';
export { loadOrCreateKeyFile, parseMasterKey } from './crypto/master-key.js';
export { JOURNAL_MIGRATIONS } from './database.js';
export { rewrapDataKey, type RewrapOutcome } from './crypto/rotate-master-key.js';
export { JOURNAL_ARCHIVE_TABLES } from './archive/journal-archive.tables.js';
export { JournalSearchService, SEARCH_REFRESH_MS } from './search/journal-search.service.js';
