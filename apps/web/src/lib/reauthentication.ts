import { ApiError } from './api';

/** The gateway's refusal of a drastic action whose session's last full authentication is older than five minutes. */
export function isReauthenticationRequired(error: unknown): boolean {
  return error instanceof ApiError && error.answer.status === 403 && error.answer.body.startsWith('Re-authentication required');
}

type Asker = () => Promise<boolean>;
let asker: Asker | undefined;
let asking = false;

/** While the prompt is up, the settings panel under it stays open (its action waits for the answer). */
export function isAskingForReauthentication(): boolean {
  return asking;
}

/** The prompt (components/reauthentication-prompt) registers itself here while it is mounted. */
export function setReauthenticationAsker(next: Asker | undefined) {
  asker = next;
}

/**
 * Runs a drastic action; when the gateway asks for a re-authentication first,
 * shows the password prompt and, once the owner passed it, runs the action
 * again. A fresh sign-in (within five minutes) never sees the prompt, so the
 * spec's flows are unchanged for it.
 */
export async function withReauthentication<T>(action: () => Promise<T>): Promise<T> {
  try {
    return await action();
  } catch (error) {
    if (!isReauthenticationRequired(error) || !asker) throw error;
    asking = true;
    let confirmed: boolean;
    try {
      confirmed = await asker();
    } finally {
      asking = false;
    }
    if (!confirmed) throw error;
    return action();
  }
}
