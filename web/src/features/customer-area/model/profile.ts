// The profile form of the customer area, pure: its values from the area's customer, its client
// rules (the server's, mirrored: crates/app/src/customer_area.rs `profile_problems`), the body of
// PUT /customer-area/profile, and the server's field errors. The rule names are the server's.
import { z } from 'zod';
import type { components } from '../../../lib/api/schema';

type AreaCustomer = components['schemas']['AreaCustomer'];
type ProfileBody = components['schemas']['ProfileBody'];

export type ProfileRule =
  'required' | 'alpha' | 'max' | 'numeric' | 'min' | 'date' | 'plate' | 'location';

export interface ProfileValues {
  firstName: string;
  lastName: string;
  address1: string;
  address2: string;
  city: string;
  postalCode: string;
  dateOfBirth: string;
  licensePlateNumber: string;
  /** A location id as text, or '' for none. */
  location: string;
  isSMSAllowed: boolean;
  isMailingAllowed: boolean;
  isEmailAllowed: boolean;
}

export type ProfileField = keyof ProfileValues;

export const PROFILE_TEXT_FIELDS = [
  'firstName',
  'lastName',
  'address1',
  'address2',
  'city',
  'postalCode',
  'dateOfBirth',
  'licensePlateNumber',
] as const satisfies readonly ProfileField[];

export function profileValues(c: AreaCustomer): ProfileValues {
  return {
    firstName: c.FirstName,
    lastName: c.LastName,
    address1: c.Address1,
    address2: c.Address2,
    city: c.City,
    postalCode: c.PostalCode,
    dateOfBirth: c.DateOfBirth,
    licensePlateNumber: c.LicensePlateNumber,
    location: c.Location == null ? '' : String(c.Location),
    isSMSAllowed: c.IsSMSAllowed,
    isMailingAllowed: c.IsMailingAllowed,
    isEmailAllowed: c.IsEmailAllowed,
  };
}

const NAME = /^[\p{L} '".-]*$/u;

/** Today in Asia/Jerusalem, YYYY-MM-DD. */
function today(now: Date): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Jerusalem' }).format(now);
}

function isRealDate(s: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}

/** "12-345-67" → "1234567"; anything with other characters stays as typed (and fails). */
export function plateDigits(raw: string): string {
  const t = raw.trim();
  return /^[\d\s-]*$/.test(t) ? t.replace(/\D/g, '') : t;
}

/** Every broken rule, field → rule (empty when the values may be sent). */
export function profileProblems(
  v: ProfileValues,
  now: Date = new Date(),
): Partial<Record<ProfileField, ProfileRule>> {
  const p: Partial<Record<ProfileField, ProfileRule>> = {};
  for (const f of ['firstName', 'lastName'] as const) {
    const s = v[f].trim();
    if (s === '') p[f] = 'required';
    else if ([...s].length > 50) p[f] = 'max';
    else if (!NAME.test(s)) p[f] = 'alpha';
  }
  for (const f of ['address1', 'address2'] as const) {
    if ([...v[f]].length > 100) p[f] = 'max';
  }
  const city = v.city.trim();
  if ([...city].length > 50) p.city = 'max';
  else if (!NAME.test(city)) p.city = 'alpha';
  const postal = v.postalCode.trim();
  if (postal !== '') {
    if (!/^\d+$/.test(postal)) p.postalCode = 'numeric';
    else if (postal.length !== 7) p.postalCode = 'min';
  }
  const born = v.dateOfBirth.trim();
  if (born !== '' && (!isRealDate(born) || born < '1900-01-01' || born > today(now))) {
    p.dateOfBirth = 'date';
  }
  const plate = plateDigits(v.licensePlateNumber);
  if (plate !== '' && !/^\d{7,8}$/.test(plate)) p.licensePlateNumber = 'plate';
  return p;
}

/** The zod schema react-hook-form checks with: each message is the rule's name. */
export function profileSchema(now: () => Date = () => new Date()) {
  return z
    .object({
      firstName: z.string(),
      lastName: z.string(),
      address1: z.string(),
      address2: z.string(),
      city: z.string(),
      postalCode: z.string(),
      dateOfBirth: z.string(),
      licensePlateNumber: z.string(),
      location: z.string(),
      isSMSAllowed: z.boolean(),
      isMailingAllowed: z.boolean(),
      isEmailAllowed: z.boolean(),
    })
    .superRefine((values, ctx) => {
      for (const [field, rule] of Object.entries(profileProblems(values, now()))) {
        ctx.addIssue({ code: 'custom', path: [field], message: rule });
      }
    });
}

export function profileBody(v: ProfileValues): ProfileBody {
  return {
    firstName: v.firstName.trim(),
    lastName: v.lastName.trim(),
    address1: v.address1,
    address2: v.address2,
    city: v.city.trim(),
    postalCode: v.postalCode.trim(),
    dateOfBirth: v.dateOfBirth.trim(),
    licensePlateNumber: plateDigits(v.licensePlateNumber),
    isSMSAllowed: v.isSMSAllowed,
    isMailingAllowed: v.isMailingAllowed,
    isEmailAllowed: v.isEmailAllowed,
    location: v.location === '' ? null : Number(v.location),
  };
}

const FIELDS_BY_SERVER_NAME: Record<string, ProfileField> = {
  firstName: 'firstName',
  lastName: 'lastName',
  address1: 'address1',
  address2: 'address2',
  city: 'city',
  postalCode: 'postalCode',
  dateOfBirth: 'dateOfBirth',
  licensePlateNumber: 'licensePlateNumber',
  location: 'location',
};

/** A formValidation answer's `params.fields`, on the form's fields. */
export function serverFieldErrors(
  params: Record<string, unknown> | undefined,
): Partial<Record<ProfileField, ProfileRule>> {
  const fields = params?.fields;
  if (!fields || typeof fields !== 'object') return {};
  const out: Partial<Record<ProfileField, ProfileRule>> = {};
  for (const [name, rule] of Object.entries(fields as Record<string, unknown>)) {
    const field = FIELDS_BY_SERVER_NAME[name];
    if (field && typeof rule === 'string') out[field] = rule as ProfileRule;
  }
  return out;
}

/** A +972 number shown with a leading 0 (the server already does; a guard for old data). */
export function localMobile(n: string): string {
  const digits = n.replace(/[\s-]/g, '');
  return digits.startsWith('+972') ? `0${digits.slice(4)}` : n;
}
