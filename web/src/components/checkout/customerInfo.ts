// The checkout's customer details: which fields the site shows and requires, and the spec's
// rules (section 5). They are the server's (`crates/app/src/customer_info.rs`), so the buyer sees
// the same verdict before and after sending; the server stays the judge. Both are run on the
// shared vectors in rules/vectors/customer_info.json, so they cannot drift apart.
import type { TFunction } from 'i18next';
// zod's mini build: the same schemas, a fifth of the classic build's bytes in the order's chunk.
import { z } from 'zod/mini';
import type { components } from '../../lib/api/schema';
import type { SiteConfig } from '../../lib/api/types';

export type CustomerInfo = components['schemas']['CustomerInfo'];
export type CustomerInfoOptions = components['schemas']['CustomerInfoOptions'];
export type FieldOption = components['schemas']['FieldOption'];
export type Term = components['schemas']['Term'];

/** The config the form reads: GET /api/config, narrowed to what checkout needs. */
export type CheckoutConfig = Pick<
  SiteConfig,
  | 'customerInfo'
  | 'terms'
  | 'termsRequired'
  | 'termsConfirmed'
  | 'verifyEmail'
  | 'verifyMobileNumber'
  | 'defaultMailingAllowed'
  | 'params'
>;

/** Rule names, as the server names them in `formValidation`'s `params.fields`. */
export type Rule =
  | 'required'
  | 'alpha'
  | 'email'
  | 'confirmation'
  | 'mobile'
  | 'idNumber'
  | 'terms'
  | 'min'
  | 'max'
  | 'numeric';

const RULES: readonly Rule[] = [
  'required',
  'alpha',
  'email',
  'confirmation',
  'mobile',
  'idNumber',
  'terms',
  'min',
  'max',
  'numeric',
];

/** The text fields the form can show, in display order. */
export type TextField =
  | 'firstName'
  | 'lastName'
  | 'email'
  | 'verifyEmailAddress'
  | 'mobileNumber'
  | 'verifyMobileNumber'
  | 'ssn'
  | 'dateOfBirth'
  | 'address1'
  | 'address2'
  | 'city'
  | 'postalCode'
  | 'invoiceName'
  | 'invoiceSSN'
  | 'invoiceAddress'
  | 'invoiceCity'
  | 'invoicePostalCode';

/** Every key an error can sit on: the text fields, the branch and the terms list. */
export type ErrorField = TextField | 'intlPhone' | 'location' | 'terms';

export type FieldErrors = Partial<Record<ErrorField, Rule>>;

export const PERSONAL_FIELDS: readonly TextField[] = [
  'firstName',
  'lastName',
  'email',
  'verifyEmailAddress',
  'mobileNumber',
  'verifyMobileNumber',
  'ssn',
  'dateOfBirth',
  'address1',
  'address2',
  'city',
  'postalCode',
];

export const INVOICE_FIELDS: readonly TextField[] = [
  'invoiceName',
  'invoiceSSN',
  'invoiceAddress',
  'invoiceCity',
  'invoicePostalCode',
];

/**
 * Lengths behind the min and max rules (the server's: postal codes are 7 digits, and any other
 * length breaks its `min` rule).
 */
export const FIELD_LENGTHS: Partial<Record<TextField, { min?: number; max?: number }>> = {
  postalCode: { min: 7, max: 7 },
  invoicePostalCode: { min: 7, max: 7 },
  address1: { max: 100 },
  address2: { max: 100 },
};

/**
 * The longest value each text field may hold, shown or not: the server's hard bounds
 * (`MAX_LENGTHS` in crates/app/src/customer_info.rs, each field's `maxLength` in the OpenAPI
 * document); over it a field breaks the `max` rule. The form's own rules come on top.
 */
export const MAX_LENGTHS: Record<TextField | 'intlPhone', number> = {
  firstName: 50,
  lastName: 50,
  email: 254,
  verifyEmailAddress: 254,
  address1: 100,
  address2: 100,
  city: 50,
  postalCode: 20,
  dateOfBirth: 10,
  mobileNumber: 20,
  verifyMobileNumber: 20,
  ssn: 20,
  intlPhone: 20,
  invoiceName: 100,
  invoiceSSN: 20,
  invoiceAddress: 100,
  invoiceCity: 50,
  invoicePostalCode: 20,
};

/** At most this many accepted terms. */
export const MAX_ACCEPTED_TERMS = 20;

const HIDDEN: FieldOption = { isIncluded: false, isRequired: false };
const REQUIRED: FieldOption = { isIncluded: true, isRequired: true };
const OPTIONAL: FieldOption = { isIncluded: true, isRequired: false };

export function invoiceEnabled(config: CheckoutConfig): boolean {
  return config.params['66'] === '1';
}

/** Whether a text field is shown and required, given the config and (for invoices) the values. */
export function fieldOption(
  field: TextField,
  config: CheckoutConfig,
  invoiceRequested: boolean,
): FieldOption {
  const o = config.customerInfo;
  switch (field) {
    case 'verifyEmailAddress':
      return o.email.isIncluded && o.verifyEmailAddress.isIncluded && config.verifyEmail
        ? { isIncluded: true, isRequired: o.email.isRequired }
        : HIDDEN;
    case 'verifyMobileNumber':
      return o.mobileNumber.isIncluded &&
        (o.verifyMobileNumber.isIncluded || config.verifyMobileNumber)
        ? { isIncluded: true, isRequired: o.mobileNumber.isRequired }
        : HIDDEN;
    case 'invoiceName':
    case 'invoiceSSN':
      return invoiceEnabled(config) && invoiceRequested ? REQUIRED : HIDDEN;
    case 'invoiceAddress':
    case 'invoiceCity':
    case 'invoicePostalCode':
      return invoiceEnabled(config) && invoiceRequested ? OPTIONAL : HIDDEN;
    default:
      return o[field];
  }
}

/** Terms the buyer must tick: the required ones, or the only one when terms are required. */
export function isTermRequired(term: Term, config: CheckoutConfig): boolean {
  return term.isRequired || (config.termsRequired && config.terms.length === 1);
}

export function emptyCustomerInfo(config: CheckoutConfig): CustomerInfo {
  return {
    acceptedTerms: config.termsConfirmed ? config.terms.map((t) => t.id) : [],
    address1: '',
    address2: '',
    city: '',
    dateOfBirth: '',
    email: '',
    firstName: '',
    intlPhone: '',
    invoiceAddress: '',
    invoiceCity: '',
    invoiceName: '',
    invoicePostalCode: '',
    invoiceRequested: false,
    invoiceSSN: '',
    lastName: '',
    location: null,
    mailingAllowed: config.defaultMailingAllowed,
    mobileNumber: '',
    postalCode: '',
    ssn: '',
    verifyEmailAddress: '',
    verifyMobileNumber: '',
  };
}

// Direction marks that right-to-left pages slip into pasted numbers.
const INVISIBLE_MARKS = /[\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * An Israeli mobile in its local form ("0521234567"), from any common spelling: "052-123-4567",
 * "+972521234567", "972 52 123 4567", "00972…", "+972 (0)52 123 4567". Null for anything else.
 * Digits are split by spaces, dashes, dots and brackets only, as the server's `MobileNumber`.
 */
export function parseIsraeliMobile(raw: string): string | null {
  const text = raw.replace(INVISIBLE_MARKS, '').trim();
  if (!/^\+?[0-9 \-.()]+$/.test(text)) return null;
  const plus = text.startsWith('+');
  const digits = text.replace(/\D/g, '');
  let national: string;
  if (digits.startsWith('00972')) national = digits.slice(5);
  else if (digits.startsWith('972')) national = digits.slice(3);
  else if (plus) return null;
  else return /^05\d{8}$/.test(digits) ? digits : null;
  const local = `0${national.replace(/^0/, '')}`;
  return /^05\d{8}$/.test(local) ? local : null;
}

/** The Israeli ID (Teudat Zehut) check: up to 9 digits, left-padded, Luhn-style check digit. */
export function isIsraeliId(raw: string): boolean {
  const digits = raw.trim();
  if (!/^\d{1,9}$/.test(digits)) return false;
  const padded = digits.padStart(9, '0');
  if (padded === '000000000') return false;
  let sum = 0;
  for (let i = 0; i < 9; i++) {
    const d = Number(padded[i]) * (i % 2 === 0 ? 1 : 2);
    sum += d > 9 ? d - 9 : d;
  }
  return sum % 10 === 0;
}

const ATOM = /^[A-Za-z0-9!#$%&'*+\-/=?^_`{|}~]+$/;
const LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;

/**
 * RFC 5322's addr-spec in its dot-atom form, as the server's `is_email_address`
 * (crates/domain/src/customer.rs): atoms joined by single dots, up to 64 before the '@'; a host
 * name of two labels or more after it, the last not all digits; 254 characters at most. No quoted
 * local parts, comments, address literals or non-ASCII addresses.
 */
export function isEmail(s: string): boolean {
  const at = s.indexOf('@');
  if (at < 0 || s.length > 254) return false;
  const local = s.slice(0, at);
  const labels = s.slice(at + 1).split('.');
  return (
    local.length <= 64 &&
    local.split('.').every((a) => ATOM.test(a)) &&
    labels.length >= 2 &&
    labels.every((l) => LABEL.test(l)) &&
    !/^[0-9]+$/.test(labels[labels.length - 1])
  );
}

/**
 * Letters (any script, with the vowel points Unicode counts as letters: Rust's `is_alphabetic`),
 * spaces and the punctuation of names: - ' " .
 */
export function isName(s: string): boolean {
  return /^[\p{Alphabetic} \-'".]*$/u.test(s);
}

/** A day of the calendar as YYYY-MM-DD ("1990-02-30" is none). */
function isDate(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return (
    date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
  );
}

/** Trimmed values, the mobile in local form, the email in lower case, '#' out of addresses. */
export function normaliseCustomerInfo(info: CustomerInfo): CustomerInfo {
  const trim = (s: string) => s.trim();
  const mobile = (s: string) => parseIsraeliMobile(s) ?? s.trim();
  const address = (s: string) => s.replace(/#/g, ' ').replace(/\s+/g, ' ').trim();
  return {
    ...info,
    firstName: trim(info.firstName),
    lastName: trim(info.lastName),
    email: trim(info.email).toLowerCase(),
    verifyEmailAddress: trim(info.verifyEmailAddress).toLowerCase(),
    mobileNumber: mobile(info.mobileNumber),
    verifyMobileNumber: mobile(info.verifyMobileNumber),
    city: trim(info.city),
    postalCode: trim(info.postalCode),
    ssn: trim(info.ssn),
    address1: address(info.address1),
    address2: address(info.address2),
    invoiceName: trim(info.invoiceName),
    invoiceSSN: trim(info.invoiceSSN),
    invoiceAddress: address(info.invoiceAddress),
    invoiceCity: trim(info.invoiceCity),
    invoicePostalCode: trim(info.invoicePostalCode),
  };
}

function ruleFor(field: TextField, value: string, info: CustomerInfo): Rule | undefined {
  const lengths = FIELD_LENGTHS[field];
  switch (field) {
    case 'firstName':
    case 'lastName':
    case 'city':
      return isName(value) ? undefined : 'alpha';
    case 'email':
      return isEmail(value) ? undefined : 'email';
    case 'verifyEmailAddress':
      return value === info.email ? undefined : 'confirmation';
    case 'mobileNumber':
      return parseIsraeliMobile(value) ? undefined : 'mobile';
    case 'verifyMobileNumber':
      return value === info.mobileNumber ? undefined : 'confirmation';
    case 'ssn':
      return isIsraeliId(value) ? undefined : 'idNumber';
    case 'postalCode':
      if (!/^[0-9]+$/.test(value)) return 'numeric';
      return value.length === lengths?.min ? undefined : 'min';
    case 'dateOfBirth':
      return isDate(value) ? undefined : 'required';
    default:
      return lengths?.max !== undefined && [...value].length > lengths.max ? 'max' : undefined;
  }
}

/** The broken rules of details already normalised, field by field. */
function brokenRules(info: CustomerInfo, config: CheckoutConfig): FieldErrors {
  const errors: FieldErrors = {};
  for (const field of PERSONAL_FIELDS) {
    const option = fieldOption(field, config, info.invoiceRequested);
    if (!option.isIncluded) continue;
    const value = info[field];
    if (value === '') {
      if (option.isRequired) errors[field] = 'required';
      continue;
    }
    const rule = ruleFor(field, value, info);
    if (rule) errors[field] = rule;
  }
  const branch = config.customerInfo.location;
  if (branch.isIncluded && branch.isRequired && info.location == null) errors.location = 'required';
  // An invoice needs a name and a company number of digits; its address is the buyer's to word.
  if (info.invoiceRequested) {
    if (info.invoiceName.trim() === '') errors.invoiceName = 'required';
    const companyNumber = info.invoiceSSN.trim();
    if (companyNumber === '') errors.invoiceSSN = 'required';
    else if (!/^[0-9]+$/.test(companyNumber)) errors.invoiceSSN = 'numeric';
  }
  const missingTerm = config.terms.some(
    (t) => isTermRequired(t, config) && !info.acceptedTerms.includes(t.id),
  );
  if (missingTerm) errors.terms = 'terms';
  for (const [field, max] of Object.entries(MAX_LENGTHS)) {
    if ([...info[field as TextField | 'intlPhone']].length > max) {
      errors[field as TextField | 'intlPhone'] = 'max';
    }
  }
  if (info.acceptedTerms.length > MAX_ACCEPTED_TERMS) errors.terms = 'max';
  return errors;
}

const text = z.string();

/** The details' shape, as the form holds them and POST /cart takes them. */
const customerInfoShape = z.object({
  firstName: text,
  lastName: text,
  email: text,
  verifyEmailAddress: text,
  mobileNumber: text,
  verifyMobileNumber: text,
  ssn: text,
  dateOfBirth: text,
  address1: text,
  address2: text,
  city: text,
  postalCode: text,
  invoiceName: text,
  invoiceSSN: text,
  invoiceAddress: text,
  invoiceCity: text,
  invoicePostalCode: text,
  intlPhone: text,
  location: z.nullable(z.number()),
  acceptedTerms: z.array(z.number()),
  mailingAllowed: z.boolean(),
  invoiceRequested: z.boolean(),
}) satisfies z.ZodMiniType<CustomerInfo>;

/** Words for a broken rule, in the buyer's language; the rule's own name by default. */
export type RuleWords = (field: ErrorField, rule: Rule, info: CustomerInfo) => string;

/** The spec's words for each rule (section 5), through the catalogue of the buyer's language. */
export function ruleWords(t: TFunction): RuleWords {
  return (field, rule, info) => {
    if (field === 'location') return t('validation.mandatoryField');
    const name = field === 'terms' ? '' : t(`checkout.fields.${field}`);
    const typed = field === 'terms' ? '' : info[field].trim();
    switch (rule) {
      case 'required':
        // The server also says "required" for a date it cannot read.
        return typed !== ''
          ? t('validation.fieldNotValid', { field: name })
          : t('validation.required', { name });
      case 'alpha':
        return t('validation.alpha');
      case 'email':
        return t('validation.email');
      case 'numeric':
        return t('validation.numeric');
      case 'min':
      case 'max': {
        if (field === 'terms') return t('validation.max', { length: MAX_ACCEPTED_TERMS });
        const lengths =
          field === 'intlPhone' ? undefined : (FIELD_LENGTHS[field] ?? { max: MAX_LENGTHS[field] });
        // The server names any wrong length of a postal code `min`; a long one reads "at most".
        const side = lengths?.max !== undefined && [...typed].length > lengths.max ? 'max' : rule;
        const length = side === 'min' ? lengths?.min : lengths?.max;
        return length === undefined
          ? t('validation.fieldNotValid', { field: name })
          : t(`validation.${side}`, { length });
      }
      case 'confirmation':
        return field === 'verifyMobileNumber'
          ? t('validation.mobileMismatch')
          : t('validation.emailMismatch');
      case 'mobile':
        return t('errors.invalid_mobileNumber');
      case 'idNumber':
        return t('validation.idNumberInvalid');
      case 'terms':
        return t('validation.termsRequired');
    }
  };
}

/**
 * The details as the checkout takes them (spec section 5): normalised, then each broken rule an
 * issue on its field (`terms` for the terms, as the server names it), whose message says it in
 * the buyer's words and whose `params.rule` names the rule as the server's formValidation does.
 * The parsed value is the normalised details, ready for POST /cart.
 */
export function customerInfoSchema(config: CheckoutConfig, words: RuleWords = (_, rule) => rule) {
  return z.pipe(
    z.pipe(customerInfoShape, z.transform(normaliseCustomerInfo)),
    customerInfoShape.check(
      z.superRefine((info, ctx) => {
        for (const [field, rule] of Object.entries(brokenRules(info, config))) {
          ctx.addIssue({
            code: 'custom',
            path: [field],
            message: words(field as ErrorField, rule, info),
            params: { rule },
          });
        }
      }),
    ),
  );
}

/** Every broken rule, field by field; empty when the details can be sent. */
export function validateCustomerInfo(raw: CustomerInfo, config: CheckoutConfig): FieldErrors {
  const result = customerInfoSchema(config).safeParse(raw);
  const errors: FieldErrors = {};
  for (const issue of result.error?.issues ?? []) {
    const field = issue.path[0] as ErrorField;
    const rule = issue.code === 'custom' ? (issue.params?.rule as Rule | undefined) : undefined;
    if (rule && !errors[field]) errors[field] = rule;
  }
  return errors;
}

const ERROR_FIELDS = new Set<string>([...PERSONAL_FIELDS, ...INVOICE_FIELDS, 'location', 'terms']);

/**
 * The field errors in a server `formValidation` answer: `{error: {code, params: {fields}}}`, its
 * inner `{code, params}`, or anything carrying those (an error object with `code` and `params`).
 * Unknown fields and rules are dropped; null when the answer is not a form validation.
 */
export function fieldErrorsFromServer(answer: unknown): FieldErrors | null {
  if (!answer || typeof answer !== 'object') return null;
  const outer = answer as { error?: unknown };
  const detail = (outer.error && typeof outer.error === 'object' ? outer.error : answer) as {
    code?: unknown;
    params?: unknown;
  };
  if (detail.code !== 'formValidation' || !detail.params || typeof detail.params !== 'object') {
    return null;
  }
  const fields = (detail.params as { fields?: unknown }).fields;
  if (!fields || typeof fields !== 'object') return null;
  const errors: FieldErrors = {};
  for (const [field, rule] of Object.entries(fields)) {
    if (ERROR_FIELDS.has(field) && RULES.includes(rule as Rule)) {
      errors[field as ErrorField] = rule as Rule;
    }
  }
  return errors;
}
