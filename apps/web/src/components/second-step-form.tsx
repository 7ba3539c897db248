import { useId, useRef, useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import type { Owner, SecondFactorMethod } from '@vault/contracts';
import { serverReason } from '../lib/api';
import { isGoneError, markVaultGone } from '../lib/farewell';
import { loginErrorToast } from '../lib/login-errors';
import { signInApi } from '../lib/second-factor';
import { toast } from '../lib/toast';
import { LockIcon } from './icons';

/** What a failed second step shows: the login toasts, with "Invalid code" for a wrong code or passkey. */
export function secondStepFailure(error: Error) {
  if (isGoneError(error)) {
    markVaultGone();
    return;
  }
  const reason = serverReason(error);
  const rejected = error.message.startsWith('401');
  toast({
    ...(rejected && reason ? { title: 'Access Denied', description: reason } : loginErrorToast(error.message, reason)),
    variant: 'destructive',
  });
}

/**
 * The login screen's second step, once the password was accepted: a code
 * from the authenticator app or a recovery code, or the passkey. Only when it
 * passes is the owner signed in (`onSignedIn`).
 */
export function SecondStepForm({ methods, onSignedIn, onRestart }: { methods: SecondFactorMethod[]; onSignedIn: () => void; onRestart: () => void }) {
  const [code, setCode] = useState('');
  const codeRef = useRef<HTMLInputElement>(null);
  const codeId = useId();
  const withCode = methods.includes('totp') || methods.includes('recovery');

  const verify = useMutation<Owner, Error, { code?: string }>({
    mutationFn: (proof) => (proof.code ? signInApi.code(proof.code) : signInApi.passkey()),
    onSuccess: onSignedIn,
    onError: (error) => {
      secondStepFailure(error);
      // The pending sign-in has expired: the password first again.
      if (error.message.startsWith('401') && error.message.includes('expired')) onRestart();
      setCode('');
      codeRef.current?.focus();
    },
  });
  const busy = verify.isPending || verify.isSuccess;

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (busy || !code.trim()) return;
    verify.mutate({ code: code.trim() });
  }

  return (
    <form className="space-y-5 p-6 sm:p-8" onSubmit={onSubmit} noValidate>
      <div>
        <h2 className="comic-heading text-lg text-hero-yellow">SECOND FACTOR REQUIRED</h2>
        <p className="mt-1 text-sm text-muted">Password accepted. Confirm it is you to open the vault.</p>
      </div>
      {methods.includes('passkey') ? (
        <button type="button" className="btn btn-yellow w-full text-lg" disabled={busy} onClick={() => verify.mutate({})}>
          <LockIcon />
          USE PASSKEY
        </button>
      ) : null}
      {withCode ? (
        <>
          <div>
            <label className="label" htmlFor={codeId}>
              Authenticator or recovery code
            </label>
            <input
              ref={codeRef}
              id={codeId}
              name="code"
              className="field font-mono"
              value={code}
              onChange={(e) => setCode(e.target.value)}
              autoComplete="one-time-code"
              // biome-ignore lint/a11y/noAutofocus: the step's one field, right after the password was accepted; with a passkey the button comes first.
              autoFocus={!methods.includes('passkey')}
              placeholder="123456 or abcde-fghjk"
            />
          </div>
          <button type="submit" className="btn btn-red w-full text-lg" disabled={busy || !code.trim()} aria-busy={busy}>
            <LockIcon />
            {busy ? 'VERIFYING...' : 'VERIFY'}
          </button>
        </>
      ) : null}
      <button type="button" className="btn btn-ghost w-full text-sm" disabled={busy} onClick={onRestart}>
        START OVER
      </button>
    </form>
  );
}

/** "SIGN IN WITH PASSKEY" under the password form, only when the owner let a passkey sign in alone. */
export function PasskeySignInButton({ onSignedIn }: { onSignedIn: () => void }) {
  const signIn = useMutation<Owner, Error>({ mutationFn: () => signInApi.passkey(), onSuccess: onSignedIn, onError: secondStepFailure });
  return (
    <button type="button" className="btn btn-yellow w-full text-base" disabled={signIn.isPending || signIn.isSuccess} onClick={() => signIn.mutate()}>
      <LockIcon />
      SIGN IN WITH PASSKEY
    </button>
  );
}
