/**
 * The names of scheduled backups: `vault-backup-<UTC time to the millisecond>.zip.age`,
 * e.g. vault-backup-2026-11-24T03-30-00.123Z.zip.age. Sorted as text they are
 * sorted by time; no colon, so `kubectl cp` and every file system take them.
 * Only names of exactly this shape are ever rotated away: whatever else shares
 * the folder or the prefix is left alone.
 */
export const BACKUP_NAME = /^vault-backup-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}\.\d{3}Z\.zip\.age$/;

export function backupName(at: Date): string {
  return `vault-backup-${at.toISOString().replace(/:/g, '-')}.zip.age`;
}

/** Of the names given, the backups beyond the newest `keep`, oldest first. */
export function backupsBeyond(names: Iterable<string>, keep: number): string[] {
  const backups = [...names].filter((name) => BACKUP_NAME.test(name)).sort();
  return backups.slice(0, Math.max(0, backups.length - keep));
}
