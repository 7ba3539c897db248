import { HTTP_ROUTES } from '@vault/contracts';
import { parseReply } from './api';
import { markVaultGone } from './farewell';
import { navigation } from './navigation';

export const STATUS_URL = HTTP_ROUTES.systemStatus.path;
/** The longest the page waits for its last calls (see onLeave) before it goes. */
export const LEAVE_WAIT_MS = 2000;

const leaveHandlers = new Set<() => Promise<void>>();

/**
 * Registers work to finish before the page leaves for an endpoint (deletes
 * still offering UNDO are sent while the session that may send them lasts:
 * the logout endpoint ends it). Returns its removal.
 */
export function onLeave(handler: () => Promise<void>): () => void {
  leaveHandlers.add(handler);
  return () => leaveHandlers.delete(handler);
}

async function finishBeforeLeaving(): Promise<void> {
  const work = Promise.allSettled([...leaveHandlers].map((handler) => handler()));
  await Promise.race([work, new Promise((resolve) => setTimeout(resolve, LEAVE_WAIT_MS))]);
}

/**
 * Sends the browser to an API endpoint that answers a navigation (the login
 * and logout endpoints), unless the vault has been destroyed meanwhile: then
 * that endpoint answers 410 with a bare text/plain body, which must never
 * become the page, and the farewell page is shown instead. The status is
 * asked first (it answers in a destroyed vault too); when it cannot be
 * read, the browser goes as asked, once the work registered with onLeave
 * is done (or LEAVE_WAIT_MS has passed).
 */
export async function leaveFor(url: string): Promise<void> {
  try {
    const res = await fetch(STATUS_URL, { credentials: 'same-origin', cache: 'no-store' });
    if (res.ok && parseReply(HTTP_ROUTES.systemStatus, await res.text()).destroyed === true) {
      markVaultGone();
      return;
    }
  } catch {
    // Status unknown: go as asked.
  }
  await finishBeforeLeaving();
  navigation.go(url);
}
