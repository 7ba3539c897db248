import { afterEach, beforeEach } from 'vitest';
import { cleanup } from '@testing-library/react';
import { dismissToast } from '../lib/toast';
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
  dismissToast();
});
