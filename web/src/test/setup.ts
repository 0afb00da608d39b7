import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';
import { resetRequestState, setRetrySleep } from '../lib/api/client';

// findBy… and waitFor give a screen 5 s, not 1 s, to appear: a test passes at once when the screen
// is quick, and a loaded CI machine (two test workers on two cores) is not mistaken for a bug.
configure({ asyncUtilTimeout: 5000 });

// Lost connections are retried at once in tests.
setRetrySleep(async () => {});

afterEach(() => {
  cleanup();
  resetRequestState();
  // The order page keeps the buyer's choices per tab; each test is a new tab.
  if (typeof sessionStorage !== 'undefined') sessionStorage.clear();
});

// jsdom has no canvas (and says so on the console): the staff charts see no 2-D context and
// leave their numbers to the tables beside them.
if (typeof HTMLCanvasElement !== 'undefined')
  HTMLCanvasElement.prototype.getContext = (() => null) as HTMLCanvasElement['getContext'];
