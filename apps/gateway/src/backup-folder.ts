import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { BACKUP_NAME, backupsBeyond } from './backup-names.js';

/** What an export leaves while it writes (libs/gateway exportToFile): `<name>.partial`, renamed to `<name>` when whole. */
const PARTIAL_SUFFIX = '.partial';

/** A folder of scheduled backups (the job's volume, mounted at /backups). */
export class BackupFolder {
  constructor(readonly dir: string) {}

  pathOf(name: string): string {
    return join(this.dir, name);
  }

  /**
   * Deletes the backups beyond the newest `keep`, and what a run cut off
   * before its rename left (a killed pod cannot remove its `.partial`): one
   * last written before this run started is no other run's file in progress.
   * Returns the paths removed.
   */
  async rotate(keep: number, startedAt: Date): Promise<string[]> {
    const names = await readdir(this.dir);
    const removed = backupsBeyond(names, keep).map((name) => this.pathOf(name));
    for (const name of names.filter((n) => n.endsWith(PARTIAL_SUFFIX) && BACKUP_NAME.test(n.slice(0, -PARTIAL_SUFFIX.length)))) {
      const path = this.pathOf(name);
      if ((await stat(path)).mtime < startedAt) removed.push(path);
    }
    for (const path of removed) await rm(path, { force: true });
    return removed;
  }
}
