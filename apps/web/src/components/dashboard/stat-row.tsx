import { useJournalCount } from '../../lib/journal';
import { useAuth } from '../../lib/session';
import { useTargets } from '../../lib/targets';
import { BookIcon, ShieldIcon, SkullIcon } from '../icons';
import { StatCard } from '../stat-card';
import { weekdayMonthDay } from '../../lib/date-format';

interface Quote {
  text: string;
  author: string;
}

const QUOTES: readonly Quote[] = [
  { text: 'Impossible is a word to be found only in the dictionary of fools.', author: 'Napoleon Bonaparte' },
  { text: 'Victory belongs to the most persevering.', author: 'Napoleon Bonaparte' },
  { text: 'The supreme art of war is to subdue the enemy without fighting.', author: 'Sun Tzu' },
  { text: 'We are what we repeatedly do. Excellence, then, is not an act, but a habit.', author: 'Will Durant' },
  { text: 'It does not matter how slowly you go as long as you do not stop.', author: 'Confucius' },
  { text: 'Waste no more time arguing about what a good man should be. Be one.', author: 'Marcus Aurelius' },
  { text: 'Discipline is the bridge between goals and accomplishment.', author: 'Jim Rohn' },
];

/** One quote per calendar day, the same all day. */
export function quoteOfTheDay(now: Date = new Date()): Quote {
  const dayNumber = Math.floor(Date.UTC(now.getFullYear(), now.getMonth(), now.getDate()) / 86_400_000);
  return QUOTES[dayNumber % QUOTES.length]!;
}

/** A count that is still loading shows an ellipsis, one that failed a dash; never a made-up zero. */
function countText(query: { isPending: boolean; isError: boolean }, count: number): string {
  if (query.isPending) return '…';
  if (query.isError) return '—';
  return String(count);
}

/**
 * The dashboard's first row: welcome, two counts and a quote (spec section 2.5).
 * The row's grid gives its four items one height; each count's <dl> is a grid
 * too, so that the card inside it takes that height (a plain block would leave
 * the card at its own, shorter height).
 */
export function StatRow() {
  const { user } = useAuth();
  const journal = useJournalCount();
  const targets = useTargets();
  const quote = quoteOfTheDay();
  const today = weekdayMonthDay(new Date());
  const eliminated = targets.data?.filter((t) => t.completed).length ?? 0;

  return (
    <div className="mb-8 grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
      <section aria-label="Welcome" className="panel flex items-center gap-4 border-hero-red-deep p-5">
        <span className="flex h-12 w-12 shrink-0 items-center justify-center rounded-lg border-2 border-black bg-hero-red-deep text-2xl text-white shadow-comic-sm">
          <ShieldIcon />
        </span>
        <div className="min-w-0">
          <p className="comic-heading break-words text-xl leading-tight text-hero-yellow">Welcome back{user?.name ? `, ${user.name}` : ''}</p>
          <p className="mt-1 text-sm text-muted">{today}: your mission briefing is ready.</p>
        </div>
      </section>
      <dl className="grid">
        <StatCard label="Journal Entries" value={countText(journal, journal.data?.count ?? 0)} icon={<BookIcon />} tone="cyan" />
      </dl>
      <dl className="grid">
        <StatCard label="Targets Eliminated" value={countText(targets, eliminated)} icon={<SkullIcon />} tone="green" />
      </dl>
      <figure className="panel flex flex-col justify-center p-5">
        <blockquote className="text-sm italic leading-snug text-ink">
          <span className="comic-heading mr-1 text-2xl not-italic leading-none text-hero-yellow" aria-hidden="true">
            “
          </span>
          {quote.text}
        </blockquote>
        <figcaption className="mt-2 text-xs font-semibold tracking-wide text-muted">— {quote.author}</figcaption>
      </figure>
    </div>
  );
}
