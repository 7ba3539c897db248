import { useQuery } from '@tanstack/react-query';
import { HTTP_ROUTES } from '@vault/contracts';
import { routeQuery } from './route-query';
import { enUsDateFormat } from './date-format';

const logsQuery = routeQuery(HTTP_ROUTES.logs);
export const LOGS_KEY = logsQuery.queryKey;

export function useAccessLogs() {
  return useQuery(logsQuery);
}

/** "login_success" as "LOGIN SUCCESS". */
export function formatAction(action: string): string {
  return action.replaceAll('_', ' ').toUpperCase();
}

export type LogTone = 'red' | 'green' | 'blue' | 'yellow' | 'cyan';

/** Passed checks of the second factor and of a re-authentication, green like a sign-in. */
const GREEN_ACTIONS = new Set(['login_success', 'second_factor_succeeded', 'reauthenticated']);
/** What changes or spends the owner's ways in, or holds an action back for them: worth a look. */
const YELLOW_ACTIONS = new Set(['password_accepted', 'recovery_code_used', 'second_factor_added', 'second_factor_removed', 'reauthentication_required']);

/**
 * Failed attempts red, sign-ins green, logouts blue, anything else cyan (spec
 * section 2.13); the second factor's steps (issue 19) green when they passed,
 * red when they failed, yellow for the rest.
 */
export function actionTone(action: string): LogTone {
  if (action.toLowerCase().includes('failed')) return 'red';
  if (GREEN_ACTIONS.has(action)) return 'green';
  if (action === 'logout') return 'blue';
  if (YELLOW_ACTIONS.has(action)) return 'yellow';
  return 'cyan';
}

/** 24-hour time to the second, with the date: "Mar 1, 2025, 14:05:09"; the raw value when invalid. */
export function formatLogTime(value: string): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  return LOG_TIME.format(date);
}

const LOG_TIME = enUsDateFormat({
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});
