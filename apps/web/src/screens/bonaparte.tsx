import { useId, useState, type FormEvent } from 'react';
import { CoinsIcon } from '../components/icons';
import { Panel, ScreenFrame } from '../components/screen-frame';
import { LoadError } from '../components/states';
import { displayedBalance, formatBalance, parseAmount, useBalance, useSubtract } from '../lib/balance';

/** The balance (spec section 2.12): a number that can only go down. */
export default function BonaparteScreen() {
  const balance = useBalance();
  const subtract = useSubtract();
  const [amount, setAmount] = useState('');
  const amountId = useId();

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const value = parseAmount(amount);
    if (value === null || subtract.isPending) return;
    subtract.mutate(value, { onSuccess: () => setAmount('') });
  }

  return (
    <ScreenFrame title="BONAPARTE" subtitle="Treasury balance" icon={<CoinsIcon />}>
      <div className="mx-auto max-w-2xl space-y-6">
        <Panel title="BALANCE" icon={<CoinsIcon />} accent="yellow">
          {balance.isError ? (
            <LoadError error={balance.error} />
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
              onChange={(e) => setAmount(e.target.value)}
            />
            <button type="submit" className="btn btn-red shrink-0" disabled={amount === '' || subtract.isPending}>
              {subtract.isPending ? 'Subtracting...' : 'Subtract'}
            </button>
          </form>
        </Panel>
      </div>
    </ScreenFrame>
  );
}
