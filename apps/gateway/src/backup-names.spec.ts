import { describe, expect, it } from '@jest/globals';
import { BACKUP_NAME, backupName, backupsBeyond } from './backup-names.js';

describe('scheduled backup names', () => {
  it('names a backup by its UTC time to the millisecond, without a colon', () => {
    const name = backupName(new Date('2026-11-24T03:30:00.123Z'));
    expect(name).toBe('vault-backup-2026-11-24T03-30-00.123Z.zip.age');
    expect(BACKUP_NAME.test(name)).toBe(true);
  });

  it('sorts as text in the order of time', () => {
    const times = ['2026-01-02T00:00:00.000Z', '2025-12-31T23:59:59.999Z', '2026-01-01T10:00:00.000Z', '2026-01-01T09:59:59.999Z'];
    const names = times.map((t) => backupName(new Date(t)));
    expect([...names].sort()).toEqual([...times].sort().map((t) => backupName(new Date(t))));
  });

  it('rotates away the oldest beyond `keep`, and nothing that is not a backup', () => {
    const backups = ['2026-11-20', '2026-11-21', '2026-11-22', '2026-11-23'].map((day) => backupName(new Date(`${day}T03:30:00.000Z`)));
    const others = ['notes.txt', `${backups[0]}.partial`, 'vault-backup-latest.zip.age', `x${backups[1]}`, 'lost+found'];
    expect(backupsBeyond([...others, backups[3], backups[1], backups[0], backups[2]], 2)).toEqual([backups[0], backups[1]]);
    expect(backupsBeyond(backups, 4)).toEqual([]);
    expect(backupsBeyond(backups, 10)).toEqual([]);
    expect(backupsBeyond(backups, 1)).toEqual(backups.slice(0, 3));
  });
});
