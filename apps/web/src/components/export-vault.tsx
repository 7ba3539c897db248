import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { EXPORT_PASSPHRASE_MIN } from '@vault/contracts';
import { serverReason } from '../lib/api';
import { toast } from '../lib/toast';
import { downloadExport, megabytes } from '../lib/vault-archive';
import { TextField } from './form-fields';

/**
 * EXPORT VAULT, in the settings panel: the owner's password again, an
 * optional passphrase (the archive is then an age file), and the bytes
 * received while the archive streams. Folded until opened, so the panel
 * stays as short as the spec's two sections and clear of the toasts; PERFECT
 * CELL, once armed, offers EXPORT FIRST, which opens it here (`open`) with
 * the password field focused.
 */
export function ExportVaultSection({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const headingId = useId();
  const details = useRef<HTMLDetailsElement>(null);
  useEffect(() => {
    if (!open) return;
    details.current?.scrollIntoView?.({ block: 'nearest' });
    details.current?.querySelector('input')?.focus();
  }, [open]);
  const [password, setPassword] = useState('');
  const [passphrase, setPassphrase] = useState('');
  const [received, setReceived] = useState<number | undefined>();
  const [error, setError] = useState<string | undefined>();
  const running = received !== undefined;

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (running || !password) return;
    setError(undefined);
    setReceived(0);
    try {
      const done = await downloadExport({ password, ...(passphrase ? { passphrase } : {}) }, setReceived);
      setPassword('');
      toast({ title: 'Vault Exported', description: `${done.name} (${megabytes(done.bytes)})` });
    } catch (failure) {
      setError(serverReason(failure) ?? (failure as Error).message);
    } finally {
      setReceived(undefined);
    }
  }

  return (
    <details
      ref={details}
      open={open}
      onToggle={(event) => onOpenChange(event.currentTarget.open)}
      aria-labelledby={headingId}
      className="rounded-lg border-2 border-edge bg-vault-deep p-4"
    >
      <summary id={headingId} className="comic-heading cursor-pointer text-base text-hero-cyan">
        EXPORT VAULT
      </summary>
      <p className="mt-2 text-sm text-muted">Everything, as one archive: records, journal notes, photos.</p>
      <form className="mt-3 space-y-2" onSubmit={onSubmit}>
        <TextField label="Owner password" type="password" value={password} onChange={setPassword} required disabled={running} />
        <TextField
          label="Passphrase (optional, encrypts the archive)"
          type="password"
          value={passphrase}
          onChange={setPassphrase}
          minLength={EXPORT_PASSPHRASE_MIN}
          disabled={running}
        />
        {error ? (
          <p role="alert" className="text-sm font-semibold text-hero-red">
            {error}
          </p>
        ) : null}
        {running ? (
          <p role="status" className="text-sm text-hero-yellow">
            EXPORTING... {megabytes(received)} received
          </p>
        ) : null}
        <button type="submit" className="btn btn-yellow w-full text-sm" disabled={running || !password}>
          {running ? 'EXPORTING...' : 'EXPORT VAULT'}
        </button>
      </form>
    </details>
  );
}
