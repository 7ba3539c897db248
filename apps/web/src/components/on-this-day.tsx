import { Panel } from './screen-frame';
import { CalendarIcon } from './icons';
import { useOnThisDay } from '../lib/journal';

/**
 * ON THIS DAY: what the owner wrote on today's date in earlier years (year,
 * title, first line), on the journal screen and the dashboard. Shown only
 * when there is something to show.
 */
export function OnThisDay() {
  const entries = useOnThisDay();
  if (!entries.data || entries.data.length === 0) return null;
  return (
    <Panel title="ON THIS DAY" icon={<CalendarIcon />} accent="cyan">
      <ul className="space-y-3" aria-label="Written on this day in earlier years">
        {entries.data.map((entry) => (
          <li key={entry.id} className="flex items-start gap-3 rounded-lg border-2 border-edge bg-vault-deep p-3">
            <span className="badge shrink-0 bg-hero-cyan text-black">{entry.year}</span>
            <div className="min-w-0">
              {entry.title ? <p className="comic-heading break-words text-ink">{entry.title}</p> : null}
              <p className="break-words text-sm text-muted">{entry.firstLine}</p>
            </div>
          </li>
        ))}
      </ul>
    </Panel>
  );
}
