import { afterEach, beforeEach } from 'vitest';
import { cleanup } from '@testing-library/react';
import { dismissToast } from '../lib/toast';
import { resetPendingDeletes } from '../lib/deferred-delete';
import { resetVaultGone } from '../lib/farewell';
import { setViewportWidth } from './viewport';

// jsdom has neither; Radix's popover measures its trigger with ResizeObserver.
if (typeof globalThis.ResizeObserver === 'undefined') {
  globalThis.ResizeObserver = class {
    observe() {}
    unobserve() {}
    disconnect() {}
  } as unknown as typeof ResizeObserver;
}

beforeEach(() => {
  setViewportWidth(1280);
});

afterEach(() => {
  cleanup();
  // Deletes still offering UNDO are forgotten unsent, then the toasts go; a test
  // starts with a vault not seen destroyed and nothing kept on the device.
  resetPendingDeletes();
  dismissToast();
  resetVaultGone();
  localStorage.clear();
  sessionStorage.clear();
});
