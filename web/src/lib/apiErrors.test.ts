import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from './i18n';
import { ApiError, apiSend, resetUuid, retryAfterSeconds } from './api/client';
import { errorMessage } from './apiErrors';

describe('the rate limit answer (429 tooManyRequests)', () => {
  beforeEach(() => resetUuid());
  afterEach(() => vi.unstubAllGlobals());

  it('reads Retry-After in seconds or as a date', () => {
    expect(retryAfterSeconds('17')).toBe(17);
    expect(retryAfterSeconds(' 3 ')).toBe(3);
    const now = Date.parse('2026-07-14T10:00:00Z');
    expect(retryAfterSeconds('Tue, 14 Jul 2026 10:00:42 GMT', now)).toBe(42);
    expect(retryAfterSeconds('Tue, 14 Jul 2026 09:00:00 GMT', now)).toBe(0);
    expect(retryAfterSeconds(null)).toBeNull();
    expect(retryAfterSeconds('soon')).toBeNull();
  });

  it("tells the buyer how long to wait, from the server's Retry-After, in he and en", async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(
        async () =>
          new Response(
            JSON.stringify({ error: { code: 'tooManyRequests', message: 'slow down' } }),
            {
              status: 429,
              headers: { 'content-type': 'application/json', 'retry-after': '12' },
            },
          ),
      ),
    );
    const error = await apiSend('PUT', '/seats/lock-seat', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(429);
    expect((error as ApiError).params).toEqual({ retryAfterSeconds: 12 });

    await i18n.changeLanguage('he');
    expect(errorMessage(i18n.t, error)).toBe(
      'יותר מדי ניסיונות בזמן קצר. המתינו 12 שניות ונסו שוב',
    );
    await i18n.changeLanguage('en');
    expect(errorMessage(i18n.t, error)).toBe(
      'Too many tries in a short time. Wait 12 seconds and try again',
    );
    expect(
      errorMessage(i18n.t, new ApiError(429, 'tooManyRequests', 'x', { retryAfterSeconds: 1 })),
    ).toBe('Too many tries in a short time. Wait 1 second and try again');
  });

  it('still says what happened when there is no Retry-After', async () => {
    await i18n.changeLanguage('he');
    expect(errorMessage(i18n.t, new ApiError(429, 'tooManyRequests', 'x'))).toBe(
      'יותר מדי ניסיונות בזמן קצר. המתינו מעט ונסו שוב',
    );
    await i18n.changeLanguage('en');
    expect(errorMessage(i18n.t, new ApiError(429, 'tooManyRequests', 'x'))).toBe(
      'Too many tries in a short time. Wait a moment and try again',
    );
  });
});

describe('a code asked again too soon (429 smsResendTooSoon)', () => {
  it('says how many seconds to wait, never a raw placeholder', async () => {
    await i18n.changeLanguage('en');
    const soon = new ApiError(429, 'smsResendTooSoon', 'x', { retryAfterSeconds: 27.2 });
    expect(errorMessage(i18n.t, soon)).toBe('You can ask for a new code in 28 seconds');
    const unknown = errorMessage(i18n.t, new ApiError(429, 'smsResendTooSoon', 'x'));
    expect(unknown).not.toContain('{{');
    await i18n.changeLanguage('he');
    expect(errorMessage(i18n.t, soon)).toBe('אפשר לבקש קוד חדש בעוד 28 שניות');
  });
});

describe('a refused call (403 forbidden)', () => {
  it("tells a role's refusal from another site's page, in he and en", async () => {
    const role = new ApiError(403, 'forbidden', 'this staff role may not make this call');
    const crossSite = new ApiError(403, 'forbidden', 'x', { reason: 'crossSite' });
    await i18n.changeLanguage('en');
    expect(errorMessage(i18n.t, role)).toBe(
      "You don't have permission to do this. Ask a manager if you need it",
    );
    expect(errorMessage(i18n.t, crossSite)).toBe(
      'The request was refused: it did not come from this site. Reload the page and try again',
    );
    await i18n.changeLanguage('he');
    expect(errorMessage(i18n.t, role)).toBe(
      'אין לכם הרשאה לפעולה הזו. אם היא נחוצה לכם, פנו למנהל',
    );
    expect(errorMessage(i18n.t, crossSite)).toContain('לא נשלחה מהאתר הזה');
  });
});
