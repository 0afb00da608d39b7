import type { TFunction } from 'i18next';
import { ApiError } from '../../lib/api/client';
import { errorMessage } from '../../lib/apiErrors';
import { formatShortDateTime } from '../../lib/format';

/** The words for a failed login: the dates and waits the server's params carry filled in. */
export function loginError(t: TFunction, error: unknown, lang: string): string {
  if (error instanceof ApiError) {
    const p = error.params ?? {};
    const at = (p.expiredAt ?? p.redeemedAt) as string | undefined;
    if (
      at &&
      (error.code === 'CUSTOMER_TOKEN_EXPIRED' || error.code === 'CUSTOMER_TOKEN_REDEEMED')
    ) {
      const date = formatShortDateTime(at, lang);
      return t(`errors.${error.code}`, { date });
    }
    if (error.code === 'tooManyLoginAttempts' && typeof p.retryAfterSeconds === 'number') {
      return t('customerLogin.tooManyWait', { count: Math.ceil(p.retryAfterSeconds / 60) });
    }
  }
  return errorMessage(t, error);
}
