import type { TFunction } from 'i18next';
import he from '../locales/he.json';
import { ApiError } from './api/client';
import type { components } from './api/schema';

/** Every code the server answers with, generated from its OpenAPI document. */
export type ErrorCode = components['schemas']['ErrorCode'];

/** A code the catalogues have words for (a test checks that every server code has them). */
export function isKnownErrorCode(code: string): code is ErrorCode {
  return Object.prototype.hasOwnProperty.call(he.errors, code);
}

/** The message to show a person for a failed call: ours for a known code, else the server's. */
export function errorMessage(t: TFunction, error: unknown): string {
  if (error instanceof ApiError) {
    if (error.code === 'tooManyRequests') {
      // The server's Retry-After, when it sent one (the client puts it in params).
      const seconds = error.params?.retryAfterSeconds;
      return typeof seconds === 'number' && Number.isFinite(seconds) && seconds > 0
        ? t('errors.tooManyRequestsWait', { count: Math.ceil(seconds) })
        : t('errors.tooManyRequests');
    }
    if (error.code === 'smsResendTooSoon') {
      const seconds = error.params?.retryAfterSeconds;
      return typeof seconds === 'number' && Number.isFinite(seconds) && seconds > 0
        ? t('errors.smsResendTooSoon', { seconds: Math.ceil(seconds) })
        : t('errors.smsResendLater');
    }
    // One code, two refusals: a page from another site (reload) or a role without the right.
    if (error.code === 'forbidden' && error.params?.reason === 'crossSite') {
      return t('errors.forbiddenCrossSite');
    }
    if (isKnownErrorCode(error.code)) return t(`errors.${error.code}`);
    if (error.message) return error.message;
  }
  return t('errors.generic');
}
