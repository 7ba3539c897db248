import { useId, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { SecondFactor, SecondFactorOverview, TotpEnrolment } from '@vault/contracts';
import { serverReason } from '../lib/api';
import { withReauthentication } from '../lib/reauthentication';
import { SECOND_FACTOR_KEY, secondFactorApi, useSecondFactors } from '../lib/second-factor';
import { toast } from '../lib/toast';
import { TextField } from './form-fields';

/**
 * SECOND FACTOR, in the settings panel: passkeys and an authenticator app
 * (with its QR code and the secret in text), the ten recovery codes shown
 * once at the first enrolment, renaming and removing (the last factor only
 * with the password), and whether a passkey alone signs in. Folded until
 * opened, and read only then.
 */
export function SecondFactorSection() {
  const headingId = useId();
  const [open, setOpen] = useState(false);
  const overview = useSecondFactors(open);
  const queryClient = useQueryClient();
  const [totp, setTotp] = useState<TotpEnrolment | undefined>();
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  /** Runs a change (asking for the password again when the sign-in is older than five minutes), then reads the factors again. */
  async function change<T>(action: () => Promise<T>, done?: (result: T) => void) {
    if (busy) return;
    setBusy(true);
    setError(undefined);
    try {
      const result = await withReauthentication(action);
      done?.(result);
      await queryClient.invalidateQueries({ queryKey: SECOND_FACTOR_KEY });
    } catch (failure) {
      setError(serverReason(failure) ?? (failure as Error).message);
    } finally {
      setBusy(false);
    }
  }

  function enrolled(result: { recoveryCodes?: string[] }) {
    if (result.recoveryCodes) setRecoveryCodes(result.recoveryCodes);
    toast({ title: 'Second Factor Added' });
  }

  const data = overview.data;
  const hasPasskey = data?.factors.some((f) => f.kind === 'passkey') ?? false;

  return (
    <details aria-labelledby={headingId} className="rounded-lg border-2 border-edge bg-vault-deep p-4" onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary id={headingId} className="comic-heading cursor-pointer text-base text-hero-cyan">
        SECOND FACTOR
      </summary>
      <p className="mt-2 text-sm text-muted">
        {data && data.factors.length > 0
          ? `On: ${data.factors.length} factor${data.factors.length === 1 ? '' : 's'}, ${data.recoveryCodesLeft} recovery code${data.recoveryCodesLeft === 1 ? '' : 's'} left.`
          : 'Off: the password alone opens the vault.'}
      </p>

      {recoveryCodes ? <RecoveryCodes codes={recoveryCodes} onDone={() => setRecoveryCodes(undefined)} /> : null}

      {data?.factors.length ? (
        <ul className="mt-3 space-y-2" aria-label="Second factors">
          {data.factors.map((factor) => (
            <FactorRow key={factor.id} factor={factor} last={data.factors.length === 1} busy={busy} change={change} />
          ))}
        </ul>
      ) : null}

      {totp ? (
        <TotpConfirmation
          enrolment={totp}
          busy={busy}
          onConfirm={(code) =>
            change(
              () => secondFactorApi.confirmTotp(totp.id, code),
              (result) => {
                setTotp(undefined);
                enrolled(result);
              },
            )
          }
        />
      ) : (
        <div className="mt-3 grid grid-cols-2 gap-2">
          <button type="button" className="btn btn-yellow text-xs" disabled={busy} onClick={() => change(() => secondFactorApi.enrolPasskey(), enrolled)}>
            ADD PASSKEY
          </button>
          <button type="button" className="btn btn-yellow text-xs" disabled={busy} onClick={() => change(() => secondFactorApi.startTotp(), setTotp)}>
            ADD AUTHENTICATOR APP
          </button>
        </div>
      )}

      {hasPasskey ? <PasskeySignInSwitch overview={data!} busy={busy} change={change} /> : null}

      {error ? (
        <p role="alert" className="mt-2 text-sm font-semibold text-hero-red">
          {error}
        </p>
      ) : null}
    </details>
  );
}

type Change = <T>(action: () => Promise<T>, done?: (result: T) => void) => Promise<void>;

function FactorRow({ factor, last, busy, change }: { factor: SecondFactor; last: boolean; busy: boolean; change: Change }) {
  const [removing, setRemoving] = useState(false);
  const [password, setPassword] = useState('');
  const kind = factor.kind === 'passkey' ? 'Passkey' : 'Authenticator app';

  function rename() {
    const name = window.prompt('New name for this factor', factor.name)?.trim();
    if (name) void change(() => secondFactorApi.rename(factor.id, name));
  }

  function remove(event?: FormEvent) {
    event?.preventDefault();
    // The last factor goes only with the password: removing it turns the second factor off.
    if (last && !removing) {
      setRemoving(true);
      return;
    }
    void change(
      () => secondFactorApi.remove(factor.id, last ? password : undefined),
      () => toast({ title: 'Second Factor Removed' }),
    );
  }

  return (
    <li className="rounded-md border-2 border-edge p-2 text-sm">
      <div className="flex items-center justify-between gap-2">
        <span>
          <span className="font-semibold text-ink">{factor.name}</span> <span className="text-muted">({kind})</span>
        </span>
        <span className="flex gap-1">
          <button type="button" className="btn btn-ghost px-2 py-1 text-xs" disabled={busy} onClick={rename} aria-label={`Rename ${factor.name}`}>
            RENAME
          </button>
          <button type="button" className="btn btn-ghost px-2 py-1 text-xs" disabled={busy} onClick={() => remove()} aria-label={`Remove ${factor.name}`}>
            REMOVE
          </button>
        </span>
      </div>
      {removing ? (
        <form className="mt-2 space-y-2" onSubmit={remove}>
          <TextField label="Owner password (removes the last factor)" type="password" value={password} onChange={setPassword} required />
          <button type="submit" className="btn btn-red w-full text-xs" disabled={busy || !password}>
            REMOVE LAST FACTOR
          </button>
        </form>
      ) : null}
    </li>
  );
}

function TotpConfirmation({ enrolment, busy, onConfirm }: { enrolment: TotpEnrolment; busy: boolean; onConfirm: (code: string) => void }) {
  const [code, setCode] = useState('');
  return (
    <form
      className="mt-3 space-y-2"
      onSubmit={(event) => {
        event.preventDefault();
        if (code.trim()) onConfirm(code.trim());
      }}
    >
      <p className="text-sm text-muted">Scan the code with the authenticator app, or type the secret, then enter the code it shows.</p>
      <img src={enrolment.qrCode} alt="QR code for the authenticator app" width={180} height={180} className="mx-auto rounded bg-white" />
      <figure className="break-all text-center font-mono text-xs text-ink" aria-label="Authenticator secret">
        {enrolment.secret}
      </figure>
      <TextField label="Code from the app" value={code} onChange={setCode} inputMode="numeric" autoComplete="one-time-code" required />
      <button type="submit" className="btn btn-yellow w-full text-xs" disabled={busy || !code.trim()}>
        CONFIRM APP
      </button>
    </form>
  );
}

function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  return (
    <section aria-label="Recovery codes" className="mt-3 rounded-md border-2 border-hero-yellow p-3">
      <p className="text-sm font-semibold text-hero-yellow">Recovery codes: each signs in once. Save them now: they are not shown again.</p>
      <ol className="mt-2 grid grid-cols-2 gap-1 font-mono text-sm text-ink">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ol>
      <button type="button" className="btn btn-ghost mt-2 w-full text-xs" onClick={onDone}>
        I HAVE SAVED THEM
      </button>
    </section>
  );
}

function PasskeySignInSwitch({ overview, busy, change }: { overview: SecondFactorOverview; busy: boolean; change: Change }) {
  const id = useId();
  return (
    <div className="mt-3 flex items-center gap-2 text-sm">
      <input
        id={id}
        type="checkbox"
        checked={overview.passkeySignIn}
        disabled={busy}
        onChange={(e) => void change(() => secondFactorApi.setPasskeySignIn(e.target.checked))}
      />
      <label htmlFor={id}>Sign in with a passkey alone</label>
    </div>
  );
}
