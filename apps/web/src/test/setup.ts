import { afterEach } from 'vitest';
import { cleanup } from '@testing-library/react';
import { dismissToast } from '../lib/toast';

afterEach(() => {
  cleanup();
  dismissToast();
});
