import type { ToastInput } from './toast';

/** Chooses the login toast by the error message content (spec section 8). */
export function loginErrorToast(message: string): Pick<ToastInput, 'title' | 'description'> {
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
  return { title: 'Authentication Failed', description: 'Invalid username or password' };
}
