// The three forms' rules (decision 0051), the server's (crates/app/src/marketing/inquiry.rs), so
// the sender sees the same verdict before and after sending; the server stays the judge. Rule
// names are the customer details' (spec section 5 messages).
import type { TFunction } from 'i18next';

export type InquiryKind = 'contact' | 'birthday' | 'job';

export type InquiryField =
  | 'fullName'
  | 'email'
  | 'mobileNumber'
  | 'locationId'
  | 'partyDate'
  | 'guests'
  | 'childAge'
  | 'position'
  | 'message';

export type InquiryRule = 'required' | 'alpha' | 'email' | 'mobile' | 'min' | 'max';

export type InquiryValues = Record<InquiryField, string>;
export type InquiryProblems = Partial<Record<InquiryField, InquiryRule>>;

/** The bounds behind min and max (`bounds` in the server's module). */
export const BOUNDS = {
  fullName: { max: 100 },
  message: { max: 2000 },
  position: { max: 100 },
  guests: { min: 5, max: 100 },
  childAge: { min: 1, max: 18 },
  partyDaysAhead: 365,
} as const;

/** The fields each form shows, in order, and which it requires. */
export const FORM_FIELDS: Record<
  InquiryKind,
  readonly { field: InquiryField; required: boolean }[]
> = {
  contact: [
    { field: 'fullName', required: true },
    { field: 'email', required: true },
    { field: 'mobileNumber', required: false },
    { field: 'locationId', required: false },
    { field: 'message', required: true },
  ],
  birthday: [
    { field: 'fullName', required: true },
    { field: 'email', required: true },
    { field: 'mobileNumber', required: true },
    { field: 'locationId', required: true },
    { field: 'partyDate', required: true },
    { field: 'guests', required: true },
    { field: 'childAge', required: false },
    { field: 'message', required: false },
  ],
  job: [
    { field: 'fullName', required: true },
    { field: 'email', required: true },
    { field: 'mobileNumber', required: true },
    { field: 'position', required: true },
    { field: 'locationId', required: false },
    { field: 'message', required: false },
  ],
};

export function emptyValues(): InquiryValues {
  return {
    fullName: '',
    email: '',
    mobileNumber: '',
    locationId: '',
    partyDate: '',
    guests: '',
    childAge: '',
    position: '',
    message: '',
  };
}

const NAME = /^[\p{L} \-'".]+$/u;
// The server's address rule in short: something@domain.tld, no spaces.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/;

/** An Israeli mobile (05X, +972 5X), separators aside: the server's `MobileNumber::parse`. */
export function isIsraeliMobile(raw: string): boolean {
  const digits = raw.replace(/[\s\-().]/g, '');
  const local = digits.startsWith('+972')
    ? `0${digits.slice(4)}`
    : digits.startsWith('972')
      ? `0${digits.slice(3)}`
      : digits;
  return /^05\d{8}$/.test(local);
}

function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

function range(value: string, min: number, max: number): InquiryRule | null {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim())) return 'min';
  if (n < min) return 'min';
  if (n > max) return 'max';
  return null;
}

/** Every broken rule of a form, field by field; `today` is YYYY-MM-DD in Asia/Jerusalem. */
export function inquiryProblems(
  kind: InquiryKind,
  raw: InquiryValues,
  today: string,
): InquiryProblems {
  const v = Object.fromEntries(Object.entries(raw).map(([k, s]) => [k, s.trim()])) as InquiryValues;
  const p: InquiryProblems = {};
  const required = new Set(FORM_FIELDS[kind].filter((f) => f.required).map((f) => f.field));
  const shown = new Set(FORM_FIELDS[kind].map((f) => f.field));
  for (const field of shown) {
    if (v[field] === '' && required.has(field)) p[field] = 'required';
  }
  if (v.fullName && !NAME.test(v.fullName)) p.fullName = 'alpha';
  else if ([...v.fullName].length > BOUNDS.fullName.max) p.fullName = 'max';
  if (v.email && !EMAIL.test(v.email)) p.email = 'email';
  if (v.mobileNumber && !isIsraeliMobile(v.mobileNumber)) p.mobileNumber = 'mobile';
  if (v.message && [...v.message].length > BOUNDS.message.max) p.message = 'max';
  if (kind === 'birthday') {
    if (v.partyDate) {
      const ahead = /^\d{4}-\d{2}-\d{2}$/.test(v.partyDate) ? daysBetween(today, v.partyDate) : NaN;
      if (Number.isNaN(ahead)) p.partyDate = 'required';
      else if (ahead <= 0) p.partyDate = 'min';
      else if (ahead > BOUNDS.partyDaysAhead) p.partyDate = 'max';
    }
    const guests = v.guests && range(v.guests, BOUNDS.guests.min, BOUNDS.guests.max);
    if (guests) p.guests = guests;
    const age = v.childAge && range(v.childAge, BOUNDS.childAge.min, BOUNDS.childAge.max);
    if (age) p.childAge = age;
  }
  if (kind === 'job' && [...v.position].length > BOUNDS.position.max) p.position = 'max';
  return p;
}

/** The request body's fields of a form that passed its rules. */
export function inquiryBody(kind: InquiryKind, raw: InquiryValues) {
  const v = Object.fromEntries(Object.entries(raw).map(([k, s]) => [k, s.trim()])) as InquiryValues;
  const number = (s: string) => (s === '' ? null : Number(s));
  return {
    kind,
    fullName: v.fullName,
    email: v.email,
    mobileNumber: v.mobileNumber,
    locationId: number(v.locationId),
    message: v.message,
    partyDate: kind === 'birthday' ? v.partyDate : '',
    guests: kind === 'birthday' ? number(v.guests) : null,
    childAge: kind === 'birthday' ? number(v.childAge) : null,
    position: kind === 'job' ? v.position : '',
  };
}

const FIELDS = new Set<string>(Object.keys(emptyValues()));
const RULES = new Set<string>(['required', 'alpha', 'email', 'mobile', 'min', 'max']);

/** A server `formValidation`'s `params.fields`, kept to the fields and rules the form knows. */
export function problemsFromServer(params: Record<string, unknown> | undefined): InquiryProblems {
  const fields = params?.fields;
  const p: InquiryProblems = {};
  if (!fields || typeof fields !== 'object') return p;
  for (const [field, rule] of Object.entries(fields)) {
    if (FIELDS.has(field) && typeof rule === 'string' && RULES.has(rule)) {
      p[field as InquiryField] = rule as InquiryRule;
    }
  }
  return p;
}

/** The spec's message for a broken rule, in the page's language. */
export function problemMessage(
  t: TFunction,
  field: InquiryField,
  rule: InquiryRule,
  value: string,
): string {
  const name = t(`marketing.fields.${field}`);
  switch (rule) {
    case 'required':
      return value.trim() !== ''
        ? t('validation.fieldNotValid', { field: name })
        : t('validation.required', { name });
    case 'alpha':
      return t('validation.alpha');
    case 'email':
      return t('validation.email');
    case 'mobile':
      return t('errors.invalid_mobileNumber');
    case 'min':
    case 'max': {
      if (field === 'partyDate') return t(`marketing.partyDate_${rule}`);
      const bounds = BOUNDS[field as 'guests'] as { min?: number; max?: number } | undefined;
      const length = bounds?.[rule];
      if (length === undefined) return t('validation.fieldNotValid', { field: name });
      // Numbers read as numbers ("at least 5"); texts by their length.
      if (!/^\d+$/.test(value.trim()) && (field === 'guests' || field === 'childAge')) {
        return t('validation.numeric');
      }
      return t(`validation.${rule}`, { length });
    }
  }
}
