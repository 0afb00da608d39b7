// The server's refusals of an enrolment in words: the ones about the enrolment itself (a seat not
// free in every screening, the cart's `formValidation` reasons) have the enrolment's own words;
// every other code its catalogue words (errors.<code>).
import type { TFunction } from 'i18next';
import { ApiError } from '../../lib/api/client';
import { errorMessage } from '../../lib/apiErrors';

/** Codes whose catalogue words are too short for an enrolment: the member's refusals. */
const MEMBER_CODES = [
  'lock_seat_error',
  'ALREADY_ENROLLED',
  'CUSTOMER_NOT_FOUND',
  'CUSTOMER_NO_MOBILE',
  'GENERAL_ERROR',
  'memberExpired',
  'memberNotStarted',
  'memberNoneAvailable',
] as const;

const CART_REASONS = [
  'requiredPresentations',
  'oneSeatPerPresentation',
  'notInSeason',
  'enrollment',
] as const;

/** The enrolment's own words for a refusal, or null when the catalogue's words are right. */
function ownWords(t: TFunction, error: unknown): string | null {
  if (!(error instanceof ApiError)) return null;
  if ((MEMBER_CODES as readonly string[]).includes(error.code)) {
    return t(`enroll.errors.${error.code as (typeof MEMBER_CODES)[number]}`);
  }
  const reason = error.params?.reason;
  if (
    error.code === 'formValidation' &&
    typeof reason === 'string' &&
    (CART_REASONS as readonly string[]).includes(reason)
  ) {
    return t(`enroll.errors.${reason as (typeof CART_REASONS)[number]}`);
  }
  return null;
}

export function enrollErrorWords(t: TFunction, error: unknown): string {
  return ownWords(t, error) ?? errorMessage(t, error);
}

/**
 * The error the details form shows for a refused cart: a refusal of the enrolment becomes an
 * error whose message is its words (the form shows an unknown code's message as it is); a
 * formValidation on the details' fields stays for the form to mark.
 */
export function asShownError(t: TFunction, error: unknown): unknown {
  const words = ownWords(t, error);
  return words !== null && error instanceof ApiError
    ? new ApiError(error.status, 'enrollmentRefused', words)
    : error;
}
