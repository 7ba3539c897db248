import { ActivityIcon, AlertIcon, CheckIcon, LogOutIcon } from '../components/icons';
import { Panel, ScreenFrame } from '../components/screen-frame';
import { CardLoading, EmptyState, LoadError } from '../components/states';
import { actionTone, formatAction, formatLogTime, useAccessLogs, type AccessLog, type LogTone } from '../lib/logs';

const TONE_CLASSES: Record<LogTone, string> = {
  red: 'border-hero-red text-hero-red',
  green: 'border-hero-green text-hero-green',
  blue: 'border-hero-blue text-hero-blue',
  cyan: 'border-hero-cyan text-hero-cyan',
};

const TONE_ICONS: Record<LogTone, typeof ActivityIcon> = {
  red: AlertIcon,
  green: CheckIcon,
  blue: LogOutIcon,
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
          <LoadError error={logs.error} />
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

function LogItem({ log }: { log: AccessLog }) {
  const tone = actionTone(log.action);
  const Icon = TONE_ICONS[tone];
  return (
    <li className={`flex items-start gap-3 rounded-lg border-2 border-l-8 bg-vault-deep px-3 py-2 ${TONE_CLASSES[tone]}`}>
      <Icon className="mt-1 shrink-0" />
      <div className="min-w-0 flex-1">
        <p className="flex flex-wrap items-baseline gap-x-3">
          <span className="comic-heading text-sm">{formatAction(log.action)}</span>
          <span className="font-mono text-sm text-ink">{log.ipAddress}</span>
        </p>
        {log.userAgent ? (
          <p className="truncate text-xs text-muted" title={log.userAgent}>
            {log.userAgent}
          </p>
        ) : null}
      </div>
      <time className="shrink-0 font-mono text-xs text-muted" dateTime={log.createdAt}>
        {formatLogTime(log.createdAt)}
      </time>
    </li>
  );
}
