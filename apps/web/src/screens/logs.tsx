import type { AccessLog } from '@vault/contracts';
import { ActivityIcon, AlertIcon, CheckIcon, LockIcon, LogOutIcon } from '../components/icons';
import { Panel, ScreenFrame } from '../components/screen-frame';
import { CardLoading, EmptyState, LoadError } from '../components/states';
import { actionTone, formatAction, formatLogTime, useAccessLogs, type LogTone } from '../lib/logs';
import { summarizeUserAgent } from '../lib/user-agent';

const TONE_CLASSES: Record<LogTone, string> = {
  red: 'border-hero-red text-hero-red',
  green: 'border-hero-green text-hero-green',
  blue: 'border-hero-blue text-hero-blue',
  yellow: 'border-hero-yellow text-hero-yellow',
  cyan: 'border-hero-cyan text-hero-cyan',
};

const TONE_ICONS: Record<LogTone, typeof ActivityIcon> = {
  red: AlertIcon,
  green: CheckIcon,
  blue: LogOutIcon,
  yellow: LockIcon,
  cyan: ActivityIcon,
};

/** Access attempt monitoring (spec section 2.13). */
export default function LogsScreen() {
  const logs = useAccessLogs();

  return (
    <ScreenFrame title="LOGS" subtitle="Access Attempt Monitoring System" icon={<ActivityIcon />}>
      <Panel title="ACCESS ATTEMPTS" icon={<ActivityIcon />} accent="cyan">
        {logs.isPending ? (
          <CardLoading>LOADING ACCESS LOGS...</CardLoading>
        ) : logs.isError ? (
          <LoadError error={logs.error} onRetry={() => void logs.refetch()} retrying={logs.isFetching} />
        ) : logs.data.length === 0 ? (
          <EmptyState icon={<ActivityIcon />}>No access logs recorded</EmptyState>
        ) : (
          <ul className="space-y-2">
            {logs.data.map((log) => (
              <LogItem key={log.id} log={log} />
            ))}
          </ul>
        )}
      </Panel>
    </ScreenFrame>
  );
}

/**
 * One attempt. The action, the address and the time share a row that wraps, so
 * on a phone the time moves under the label instead of being drawn over it; a
 * label longer than the row breaks. The user agent is summarised ("Chrome 156
 * on Linux"), its full string a click away.
 */
function LogItem({ log }: { log: AccessLog }) {
  const tone = actionTone(log.action);
  const Icon = TONE_ICONS[tone];
  return (
    <li className={`flex items-start gap-3 rounded-lg border-2 border-l-8 bg-vault-deep px-3 py-2 ${TONE_CLASSES[tone]}`}>
      <Icon className="mt-1 shrink-0" />
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-0.5">
          <p className="flex min-w-0 flex-wrap items-baseline gap-x-3 gap-y-0.5">
            <span className="comic-heading min-w-0 text-sm [overflow-wrap:anywhere]">{formatAction(log.action)}</span>
            <span className="min-w-0 break-all font-mono text-sm text-ink">{log.ipAddress}</span>
          </p>
          <time className="font-mono text-xs text-muted" dateTime={log.createdAt}>
            {formatLogTime(log.createdAt)}
          </time>
        </div>
        {log.detail ? <p className="mt-0.5 break-words font-mono text-xs text-muted">{log.detail}</p> : null}
        {log.userAgent ? <UserAgent agent={log.userAgent} /> : null}
      </div>
    </li>
  );
}

function UserAgent({ agent }: { agent: string }) {
  const summary = summarizeUserAgent(agent);
  // A tool's agent ("curl/8.5.0") is its own summary: nothing more to show.
  if (!summary || summary === agent.trim()) {
    return <p className="mt-0.5 break-all text-xs text-muted">{agent}</p>;
  }
  return (
    <details className="mt-0.5 text-xs text-muted">
      <summary className="w-fit max-w-full cursor-pointer truncate hover:text-ink" title="Show the full user agent">
        {summary}
      </summary>
      <p className="mt-1 break-all font-mono text-muted">{agent}</p>
    </details>
  );
}
