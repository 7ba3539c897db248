import { useId, useState, type FormEvent } from 'react';
import { HTTP_ROUTES, type LoginRequest } from '@vault/contracts';
import { serverReason, throwIfResNotOk } from '../lib/api';
import { uploadRestore } from '../lib/vault-archive';
import { FileField, TextField } from './form-fields';

/**
 * RESTORE A VAULT, on the sign-in screen: an export goes back into an empty
 * vault (a fresh install, or after start-new-vault). The owner signs in with
 * this vault's own credentials, then the archive uploads with its progress;
 * the server refuses it unless the vault is empty, and says why.
 */
export function RestoreVault({ username, onRestored }: { username: string; onRestored: () => void }) {
  const headingId = useId();
  const [password, setPassword] = useState('');
  const [passphrase, setPassphrase] = useState('');
  const [file, setFile] = useState<File | undefined>();
  const [progress, setProgress] = useState<number | undefined>();
  const [message, setMessage] = useState<{ error: boolean; text: string } | undefined>();
  const running = progress !== undefined;

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (running || !file || !password) return;
    setMessage(undefined);
    setProgress(0);
    try {
      const login = await fetch(HTTP_ROUTES.login.path, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ username, password } satisfies LoginRequest),
      });
      await throwIfResNotOk(login);
      const restored = await uploadRestore(file, passphrase || undefined, setProgress);
      setMessage({ error: false, text: `Restored ${restored.journal ?? 0} journal entries and ${restored.photos ?? 0} photos.` });
      onRestored();
    } catch (failure) {
      setMessage({ error: true, text: serverReason(failure) ?? (failure as Error).message });
    } finally {
      setProgress(undefined);
    }
  }

  return (
    // Folded away: every sign-in screen offers it, and only an empty vault accepts it (the server says so otherwise).
    <details className="mt-6 rounded-lg border-2 border-edge bg-vault-deep p-4">
      <summary id={headingId} className="comic-heading cursor-pointer text-base text-hero-cyan">
        RESTORE A VAULT
      </summary>
      <p className="mt-2 text-sm text-muted">Into an empty vault only. Sign in with this vault&apos;s password.</p>
      <form className="mt-3 space-y-2" aria-labelledby={headingId} onSubmit={onSubmit}>
        <FileField label="Archive (.zip or .zip.age)" accept=".zip,.age,application/zip" disabled={running} onChange={setFile} />
        <TextField label="Owner password" type="password" value={password} onChange={setPassword} required disabled={running} />
        <TextField label="Passphrase (if the archive is encrypted)" type="password" value={passphrase} onChange={setPassphrase} disabled={running} />
        {message ? (
          <p role={message.error ? 'alert' : 'status'} className={`text-sm font-semibold ${message.error ? 'text-hero-red' : 'text-hero-yellow'}`}>
            {message.text}
          </p>
        ) : null}
        {running ? (
          <progress className="w-full" max={1} value={progress} aria-label="Restore upload">
            {Math.round(progress * 100)}%
          </progress>
        ) : null}
        <button type="submit" className="btn btn-yellow w-full text-sm" disabled={running || !file || !password}>
          {running ? 'RESTORING...' : 'RESTORE'}
        </button>
      </form>
    </details>
  );
}
