import * as Dialog from '@radix-ui/react-dialog';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { serverReason } from '../lib/api';
import { setReauthenticationAsker } from '../lib/reauthentication';
import { reauthenticate, useSecondFactors } from '../lib/second-factor';
import { TextField } from './form-fields';

/**
 * CONFIRM IT'S YOU: the password prompt of a drastic action whose session
 * signed in more than five minutes ago (and a code or the passkey when a
 * second factor is enrolled). Shown only when the gateway asks for it.
 */
export function ReauthenticationPrompt() {
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [problem, setProblem] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const settle = useRef<(done: boolean) => void>(undefined);
  // Asked only when the prompt opens: a visitor of a public vault has no factors to read.
  const factors = useSecondFactors(open);
  const kinds = new Set(factors.data?.factors.map((f) => f.kind));
  const hasFactor = kinds.size > 0;

  useEffect(() => {
    setReauthenticationAsker(
      () =>
        new Promise<boolean>((resolve) => {
          settle.current = resolve;
          setPassword('');
          setCode('');
          setProblem(undefined);
          setOpen(true);
        }),
    );
    return () => setReauthenticationAsker(undefined);
  }, []);

  function finish(done: boolean) {
    setOpen(false);
    settle.current?.(done);
    settle.current = undefined;
  }

  async function confirm(proof: { code?: string; passkey?: boolean }) {
    if (busy || !password) return;
    setBusy(true);
    setProblem(undefined);
    try {
      await reauthenticate(password, proof);
      finish(true);
    } catch (error) {
      setProblem(serverReason(error) ?? (error as Error).message);
    } finally {
      setBusy(false);
    }
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    void confirm({ code: code.trim() || undefined });
  }

  return (
    <Dialog.Root open={open} onOpenChange={(next) => (next ? setOpen(true) : finish(false))}>
      <Dialog.Portal>
        <div className="dialog-backdrop fixed inset-0 z-50 bg-black/70" aria-hidden="true" />
        <Dialog.Content className="panel fixed left-1/2 top-1/2 z-50 w-[calc(100vw-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 p-5">
          <Dialog.Title className="comic-heading text-xl text-hero-yellow">CONFIRM IT&apos;S YOU</Dialog.Title>
          <Dialog.Description className="mt-1 text-sm text-muted">
            Your last sign-in was more than 5 minutes ago. Enter your password{hasFactor ? ' and your second factor' : ''} again.
          </Dialog.Description>
          <form className="mt-4 space-y-3" onSubmit={onSubmit}>
            <TextField label="Owner password" type="password" value={password} onChange={setPassword} required autoFocus disabled={busy} />
            {hasFactor ? <TextField label="Authenticator or recovery code" value={code} onChange={setCode} inputMode="text" disabled={busy} /> : null}
            {problem ? (
              <p role="alert" className="text-sm font-semibold text-hero-red">
                {problem}
              </p>
            ) : null}
            <div className="flex gap-2">
              <button type="submit" className="btn btn-red flex-1 text-sm" disabled={busy || !password}>
                {busy ? 'CHECKING...' : 'CONFIRM'}
              </button>
              {kinds.has('passkey') ? (
                <button type="button" className="btn btn-yellow flex-1 text-sm" disabled={busy || !password} onClick={() => void confirm({ passkey: true })}>
                  USE PASSKEY
                </button>
              ) : null}
              <button type="button" className="btn btn-ghost text-sm" disabled={busy} onClick={() => finish(false)}>
                CANCEL
              </button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
