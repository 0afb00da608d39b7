import { describe, expect, it } from 'vitest';
import { earliestClock, formatClock, remainingMs } from './countdownClock';

describe('hold countdown', () => {
  it('counts on the server clock, whatever the browser clock says', () => {
    // The browser runs an hour fast; the server said 09:00:00 two seconds ago.
    const receivedAt = Date.parse('2026-07-14T10:00:00Z');
    const now = receivedAt + 2000;
    expect(remainingMs('2026-07-14T09:10:00Z', '2026-07-14T09:00:00Z', receivedAt, now)).toBe(
      598_000,
    );
  });

  it('stops at zero and shows minutes and seconds', () => {
    expect(remainingMs('2026-07-14T09:00:00Z', '2026-07-14T09:05:00Z', 0, 0)).toBe(0);
    expect(formatClock(598_000)).toBe('9:58');
    expect(formatClock(61_500)).toBe('1:02');
    expect(formatClock(0)).toBe('0:00');
  });

  it('runs to the first of several holds to end, and to nothing with none', () => {
    const answer = (...ends: string[]) => ({
      selections: ends.map((expiresAt) => ({ expiresAt })),
      serverTime: '2026-07-14T09:00:00Z',
      receivedAt: 5,
    });
    expect(earliestClock(answer('2026-07-14T09:12:00Z', '2026-07-14T09:10:00Z'))).toEqual({
      expiresAt: '2026-07-14T09:10:00Z',
      serverTime: '2026-07-14T09:00:00Z',
      receivedAt: 5,
    });
    expect(earliestClock(answer())).toBeNull();
  });
});
