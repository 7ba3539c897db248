import { useRef, type KeyboardEvent } from 'react';
import { WEEKDAYS } from '../lib/weekly-templates';

export function dayTabId(prefix: string, value: number): string {
  return `${prefix}-tab-${value}`;
}

/**
 * The seven weekday tabs, MON to SUN (WAI-ARIA tabs: arrow keys, Home and End
 * move between them and select).
 */
export function DayTabs({ idPrefix, panelId, value, onChange }: { idPrefix: string; panelId: string; value: number; onChange: (value: number) => void }) {
  const refs = useRef<(HTMLButtonElement | null)[]>([]);

  function onKeyDown(event: KeyboardEvent<HTMLButtonElement>, index: number) {
    const last = WEEKDAYS.length - 1;
    const next =
      event.key === 'ArrowRight'
        ? index === last
          ? 0
          : index + 1
        : event.key === 'ArrowLeft'
          ? index === 0
            ? last
            : index - 1
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? last
              : undefined;
    if (next === undefined) return;
    event.preventDefault();
    onChange(WEEKDAYS[next]!.value);
    refs.current[next]?.focus();
  }

  return (
    <div role="tablist" aria-label="Day of the week" className="mb-5 grid grid-cols-7 gap-1 sm:gap-2">
      {WEEKDAYS.map((day, index) => {
        const selected = day.value === value;
        return (
          <button
            key={day.value}
            ref={(element) => {
              refs.current[index] = element;
            }}
            id={dayTabId(idPrefix, day.value)}
            type="button"
            role="tab"
            aria-selected={selected}
            aria-controls={panelId}
            aria-label={day.name}
            tabIndex={selected ? 0 : -1}
            onClick={() => onChange(day.value)}
            onKeyDown={(event) => onKeyDown(event, index)}
            className={[
              'min-h-11 rounded-md border-2 px-0 text-xs font-extrabold tracking-wider sm:text-sm',
              selected
                ? 'border-black bg-hero-yellow text-black shadow-comic-sm'
                : 'border-edge bg-vault-deep text-ink hover:border-hero-cyan hover:text-hero-cyan',
            ].join(' ')}
          >
            {day.short}
          </button>
        );
      })}
    </div>
  );
}
