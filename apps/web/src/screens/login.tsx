import { useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useMutation } from '@tanstack/react-query';
import { HTTP_ROUTES, type LoginRequest, type PublicOwner, type SecondFactorMethod } from '@vault/contracts';
import { callApi, serverReason } from '../lib/api';
import { isGoneError, markVaultGone } from '../lib/farewell';
import { takeReturnPath } from '../lib/return-path';
import { loginErrorToast } from '../lib/login-errors';
import { navigation } from '../lib/navigation';
import { toast } from '../lib/toast';
import { vaultTitle } from '../lib/session';
import { ActivityIcon, EyeIcon, EyeOffIcon, LockIcon, ShieldIcon } from '../components/icons';
import { RestoreVault } from '../components/restore-vault';
import { PasskeySignInButton, SecondStepForm } from '../components/second-step-form';

/** Why a blank sign-in was not sent, under the field that is missing. */
export const MISSING_PASSWORD = 'Enter the password.';
export const MISSING_USERNAME = 'The username is missing: the vault could not load its owner. Reload the page.';

type Missing = 'username' | 'password' | null;

/**
 * The landing page for signed-out visitors (spec section 2.2). `footer` is
 * shown under the form (a visitor of a public vault gets a way back to it).
 */
export function LoginScreen({ owner, footer }: { owner?: PublicOwner | null; footer?: ReactNode }) {
  const [password, setPassword] = useState('');
  const [showPassword, setShowPassword] = useState(false);
  // A blank sign-in is still not sent (spec section 5), but says which field is missing.
  const [missing, setMissing] = useState<Missing>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const usernameId = useId();
  const passwordId = useId();
  const statusId = useId();
  const problemId = useId();
  const username = owner?.username ?? '';
  // With a second factor enrolled, the accepted password leads to the second step (no session yet).
  const [secondStep, setSecondStep] = useState<SecondFactorMethod[] | null>(null);
  // Back to the screen an expired session left (takeReturnPath), else / (spec section 2.2).
  const signedIn = () => navigation.assign(takeReturnPath());

  const login = useMutation({
    mutationFn: (body: LoginRequest) => callApi(HTTP_ROUTES.login, { body }),
    onSuccess: (answer) => {
      if (answer && 'secondFactor' in answer) {
        setPassword('');
        setSecondStep(answer.secondFactor);
        return;
      }
      signedIn();
    },
    onError: (error: Error) => {
      if (isGoneError(error)) {
        markVaultGone();
        return;
      }
      toast({ ...loginErrorToast(error.message, serverReason(error)), variant: 'destructive' });
      // A refused password is not left in the field: the next attempt starts afresh.
      setPassword('');
      passwordRef.current?.focus();
    },
  });

  const pending = login.isPending || (login.isSuccess && !secondStep);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    const user = username.trim();
    if (!user) {
      setMissing('username');
      return;
    }
    if (!password.trim()) {
      setMissing('password');
      passwordRef.current?.focus();
      return;
    }
    setMissing(null);
    login.mutate({ username: user, password });
  }

  function onPasswordChange(value: string) {
    setPassword(value);
    if (missing === 'password') setMissing(null);
  }

  const problem = missing === 'username' ? MISSING_USERNAME : missing === 'password' ? MISSING_PASSWORD : null;

  return (
    <main className="flex min-h-dvh items-center justify-center px-4 pt-[max(2.5rem,env(safe-area-inset-top))] pb-[max(2.5rem,env(safe-area-inset-bottom))] sm:px-6">
      <div className="w-full max-w-md">
        <div className="mb-6 flex flex-col items-center text-center">
          <span className="mb-5 flex h-20 w-20 -rotate-6 items-center justify-center rounded-2xl border-[3px] border-black bg-hero-red-deep text-4xl text-white shadow-[6px_6px_0_0_#000]">
            <ShieldIcon />
          </span>
          <h1 className="comic-title break-words text-4xl leading-none text-hero-yellow sm:text-5xl">{vaultTitle(owner?.name)}</h1>
          <p className="comic-heading mt-3 text-base text-hero-cyan sm:text-lg">Personal Access Portal</p>
        </div>

        <div className="panel overflow-hidden">
          <div className="hazard border-b-2 border-black px-3 py-2">
            <p className="comic-heading mx-auto flex w-fit items-center gap-2 rounded bg-black px-3 py-1 text-sm text-hero-yellow">
              <LockIcon />
              MAXIMUM SECURITY ACTIVE
            </p>
          </div>

          {secondStep ? (
            <SecondStepForm
              methods={secondStep}
              onSignedIn={signedIn}
              onRestart={() => {
                setSecondStep(null);
                login.reset();
              }}
            />
          ) : (
            <form className="space-y-5 p-6 sm:p-8" onSubmit={onSubmit} noValidate aria-describedby={statusId}>
              <div>
                <label className="label" htmlFor={usernameId}>
                  Username
                </label>
                <input
                  id={usernameId}
                  name="username"
                  className="field font-mono"
                  value={username}
                  readOnly
                  disabled
                  autoComplete="username"
                  aria-invalid={missing === 'username' ? true : undefined}
                  aria-describedby={missing === 'username' ? problemId : undefined}
                />
                {missing === 'username' ? <FieldProblem id={problemId}>{problem}</FieldProblem> : null}
              </div>

              <div>
                <label className="label" htmlFor={passwordId}>
                  Password
                </label>
                <div className="relative">
                  <input
                    ref={passwordRef}
                    id={passwordId}
                    name="password"
                    type={showPassword ? 'text' : 'password'}
                    className="field pr-14"
                    placeholder="Enter password"
                    value={password}
                    onChange={(e) => onPasswordChange(e.target.value)}
                    autoComplete="current-password"
                    // biome-ignore lint/a11y/noAutofocus: the sign-in screen's one field; the owner came here to type it.
                    autoFocus
                    required
                    aria-invalid={missing === 'password' ? true : undefined}
                    aria-describedby={missing === 'password' ? problemId : undefined}
                  />
                  <button
                    type="button"
                    onClick={() => setShowPassword((v) => !v)}
                    aria-label={showPassword ? 'Hide password' : 'Show password'}
                    aria-pressed={showPassword}
                    aria-controls={passwordId}
                    className="absolute inset-y-1 right-1 flex w-11 items-center justify-center rounded-md text-xl text-muted hover:bg-white/5 hover:text-ink"
                  >
                    {showPassword ? <EyeOffIcon /> : <EyeIcon />}
                  </button>
                </div>
                {missing === 'password' ? <FieldProblem id={problemId}>{problem}</FieldProblem> : null}
              </div>

              <button type="submit" className="btn btn-red w-full text-lg" disabled={pending} aria-busy={pending}>
                <LockIcon />
                {pending ? 'AUTHENTICATING...' : 'SECURE ACCESS'}
              </button>
              {owner?.passkeySignIn ? <PasskeySignInButton onSignedIn={signedIn} /> : null}

              <div id={statusId} className="rounded-lg border-2 border-hero-cyan/40 bg-vault-deep/80 p-4">
                <p className="comic-heading mb-2 flex items-center gap-2 text-sm text-hero-cyan">
                  <ActivityIcon />
                  Security Status
                </p>
                <ul className="space-y-1.5 text-sm text-ink">
                  <li className="flex items-center gap-2">
                    <span className="h-2 w-2 shrink-0 rounded-full bg-hero-green" aria-hidden="true" />
                    Session auto-expires in half an hour
                  </li>
                  <li className="flex items-center gap-2">
                    <span className="h-2 w-2 shrink-0 rounded-full bg-hero-green" aria-hidden="true" />
                    All access attempts are logged
                  </li>
                </ul>
              </div>
            </form>
          )}
        </div>

        <p className="mt-6 text-center text-sm text-muted">Access restricted to authorized user only</p>
        {footer ? <div className="mt-4 flex justify-center">{footer}</div> : null}
        <RestoreVault username={username} onRestored={() => navigation.assign('/')} />
      </div>
    </main>
  );
}

function FieldProblem({ id, children }: { id: string; children: ReactNode }) {
  return (
    <p id={id} role="alert" className="mt-2 text-sm font-semibold text-hero-red">
      {children}
    </p>
  );
}
