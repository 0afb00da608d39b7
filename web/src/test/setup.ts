import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';
import { resetRequestState, setRetrySleep } from '../lib/api/client';

// Lost connections are retried at once in tests.
setRetrySleep(async () => {});

afterEach(() => {
  cleanup();
  resetRequestState();
  // The order page keeps the buyer's choices per tab; each test is a new tab.
  if (typeof sessionStorage !== 'undefined') sessionStorage.clear();
});
