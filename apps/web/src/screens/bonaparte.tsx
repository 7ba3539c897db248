import { useId, useState, type FormEvent } from 'react';
import { CoinsIcon } from '../components/icons';
import { Panel, ScreenFrame } from '../components/screen-frame';
import { LoadError } from '../components/states';
import { displayedBalance, formatBalance, parseAmount, useBalance, useSubtract } from '../lib/balance';

/** Why an amount is not sent (spec section 5 ignores it; the owner is told so). */
export const AMOUNT_NOT_ABOVE_ZERO = 'Enter an amount above 0.';

/** The balance (spec section 2.12): a number that can only go down. */
export default function BonaparteScreen() {
  const balance = useBalance();
  const subtract = useSubtract();
  const [amount, setAmount] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const amountId = useId();
  const problemId = useId();

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (subtract.isPending) return;
    const value = parseAmount(amount);
    if (value === null) {
      setProblem(AMOUNT_NOT_ABOVE_ZERO);
      return;
    }
    setProblem(null);
    subtract.mutate(value, { onSuccess: () => setAmount('') });
  }

  function onAmountChange(value: string) {
    setAmount(value);
    setProblem(null);
  }

  return (
    <ScreenFrame title="BONAPARTE" subtitle="Treasury balance" icon={<CoinsIcon />}>
      <div className="mx-auto max-w-2xl space-y-6">
        <Panel title="BALANCE" icon={<CoinsIcon />} accent="yellow">
          {balance.isError ? (
            <LoadError error={balance.error} onRetry={() => void balance.refetch()} retrying={balance.isFetching} />
          ) : (
            <p
              className="comic-title break-all text-center text-5xl leading-none text-hero-yellow sm:text-7xl"
              aria-live="polite"
              aria-busy={balance.isPending}
            >
              {balance.isPending ? (
                <span className="text-muted">
                  <span aria-hidden="true">…</span>
                  <span className="sr-only">Loading balance</span>
                </span>
              ) : (
                formatBalance(displayedBalance(balance.data))
              )}
            </p>
          )}
        </Panel>

        <Panel title="SUBTRACT" accent="red">
          <form className="flex flex-col gap-3 sm:flex-row" onSubmit={onSubmit}>
            <label htmlFor={amountId} className="sr-only">
              Amount
            </label>
            <input
              id={amountId}
              type="number"
              inputMode="decimal"
              min={0}
              // The balance is kept to the cent: the browser refuses a finer amount before it is sent.
              step={0.01}
              required
              className="field"
              placeholder="Enter amount"
              value={amount}
              onChange={(e) => onAmountChange(e.target.value)}
              aria-invalid={problem ? true : undefined}
              aria-describedby={problem ? problemId : undefined}
            />
            <button type="submit" className="btn btn-red shrink-0" disabled={amount === '' || subtract.isPending}>
              {subtract.isPending ? 'Subtracting...' : 'Subtract'}
            </button>
          </form>
          {problem ? (
            <p id={problemId} role="alert" className="mt-3 text-sm font-semibold text-hero-red">
              {problem}
            </p>
          ) : null}
        </Panel>
      </div>
    </ScreenFrame>
  );
}
