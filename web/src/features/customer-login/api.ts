// The customer logins of decision 0023 (docs/api.md "Customer logins"). Every login answer sets
// the HttpOnly login cookie and rotates the session; the caller refreshes `customer/me`.
import { apiSend } from '../../lib/api/client';

export type LoginMethod =
  | 'byPhone'
  | 'byEmailAndPassword'
  | 'byMemberNumberAndSsn'
  | 'byReservationNumber'
  | 'byMailedLink';

export const ALL_METHODS: readonly LoginMethod[] = [
  'byPhone',
  'byEmailAndPassword',
  'byMemberNumberAndSsn',
  'byReservationNumber',
  'byMailedLink',
];

/** The methods the site config enables, the configured first method first. */
export function enabledMethods(raw: Record<string, unknown> | null | undefined): LoginMethod[] {
  const listed = Array.isArray(raw?.customerLoginMethods)
    ? (raw.customerLoginMethods as unknown[]).filter((m): m is LoginMethod =>
        ALL_METHODS.includes(m as LoginMethod),
      )
    : [...ALL_METHODS];
  const methods = listed.length > 0 ? listed : ['byPhone' as const];
  const first = raw?.customerAreaLoginMethod;
  if (typeof first === 'string' && methods.includes(first as LoginMethod)) {
    return [first as LoginMethod, ...methods.filter((m) => m !== first)];
  }
  return methods;
}

/** Only same-site paths are followed after a login (no open redirect). */
export function safeReturnTo(raw: string | null): string {
  if (raw && raw.startsWith('/') && !raw.startsWith('//') && !raw.startsWith('/\\')) return raw;
  return '/customer-area';
}

const RETURN_KEY = 'kupa.loginReturnTo';
/** How long a registration's way back is kept: the registration link's 24 hours. */
const RETURN_KEPT_MS = 24 * 60 * 60 * 1000;

/**
 * Keeps where a registration was to go on (a same-site path) until its mailed link is opened,
 * in this browser's storage, so the link's page, maybe in another tab, goes there.
 */
export function rememberReturnTo(raw: string | null, now = Date.now()): void {
  if (!raw || safeReturnTo(raw) !== raw) return;
  try {
    localStorage.setItem(RETURN_KEY, JSON.stringify({ to: raw, at: now }));
  } catch {
    // Storage refused (private mode): the link's page goes to the customer area.
  }
}

/** Where a mailed link's login goes on: a remembered way back (used once), or the area. */
export function takeReturnTo(now = Date.now()): string {
  try {
    const kept = localStorage.getItem(RETURN_KEY);
    localStorage.removeItem(RETURN_KEY);
    const { to, at } = JSON.parse(kept ?? 'null') as { to: string; at: number };
    if (typeof to === 'string' && now - at < RETURN_KEPT_MS) return safeReturnTo(to);
  } catch {
    // Nothing kept, or not ours.
  }
  return '/customer-area';
}

type Ok = { success: boolean };

export const loginApi = {
  areaSendCode: (mobileNumber: string, recaptchaToken: string) =>
    apiSend<Ok>('POST', '/customer-area/mobile-login', { mobileNumber, recaptchaToken }),
  areaValidate: (smsCode: string) =>
    apiSend<unknown>('POST', '/customer-area/mobile-login-validation', { smsCode }),
  password: (email: string, password: string, recaptchaToken: string) =>
    apiSend<unknown>('POST', '/customer/login', {
      email,
      password,
      recaptchaToken,
      includeMemberships: true,
    }),
  register: (body: {
    firstName: string;
    lastName: string;
    email: string;
    password: string;
    mobileNumber: string;
    mailingAllowed: boolean;
    recaptchaToken: string;
  }) => apiSend<Ok>('POST', '/customer/register', body),
  forgot: (email: string, recaptchaToken: string) =>
    apiSend<Ok>('POST', '/customer/password-reset', { email, recaptchaToken }),
  resetConfirm: (token: string, password: string) =>
    apiSend<unknown>('POST', '/customer/password-reset/confirm', { token, password }),
  verifyEmail: (token: string) => apiSend<unknown>('POST', '/customer/verify-email', { token }),
  member: (memberNumber: string, ssn: string, recaptchaToken: string) =>
    apiSend<unknown>('POST', '/customer/member-login', { memberNumber, ssn, recaptchaToken }),
  reservation: (reservationNumber: string, contact: string, recaptchaToken: string) =>
    apiSend<{ reservationIdentifier: string; claimed: boolean }>(
      'POST',
      '/customer/reservation-login',
      { reservationNumber, contact, recaptchaToken },
    ),
  mailLogin: (email: string, kind: 'link' | 'code', recaptchaToken: string) =>
    apiSend<Ok>('POST', '/customer/mail-login', { email, kind, recaptchaToken }),
  mailCode: (email: string, code: string) =>
    apiSend<unknown>('POST', '/customer/mail-code-login', { email, code }),
  tokenLogin: (token: string) => apiSend<unknown>('POST', '/customer/token-login', { token }),
};
