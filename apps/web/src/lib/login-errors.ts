import type { ToastInput } from './toast';

/**
 * Chooses the login toast by the error message content (spec section 8). The
 * catch-all toast also carries the server's reason when there is one (`reason`,
 * see serverReason): "Invalid username or password" alone would hide, say, a
 * session store that is down.
 */
export function loginErrorToast(message: string, reason?: string): Pick<ToastInput, 'title' | 'description' | 'detail'> {
  if (message.includes('locked')) {
    return { title: 'Account Locked', description: 'Account temporarily locked for security. Try again later.' };
  }
  if (message.includes('Rate limit')) {
    return { title: 'Too Many Attempts', description: 'Please wait 15 minutes before trying again.' };
  }
  if (message.includes('Invalid credentials')) {
    return {
      title: 'Access Denied',
      description: 'Invalid credentials. Access restricted to authorized user only.',
    };
  }
  return { title: 'Authentication Failed', description: 'Invalid username or password', ...(reason ? { detail: reason } : {}) };
}
