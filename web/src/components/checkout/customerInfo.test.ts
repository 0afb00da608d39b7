import { describe, expect, it } from 'vitest';
import i18n from '../../lib/i18n';
import { makeConfig } from '../../test/fixtures';
import {
  customerInfoSchema,
  emptyCustomerInfo,
  fieldErrorsFromServer,
  isIsraeliId,
  normaliseCustomerInfo,
  parseIsraeliMobile,
  ruleWords,
  validateCustomerInfo,
  type CustomerInfo,
} from './customerInfo';

const config = makeConfig();

function filled(overrides: Partial<CustomerInfo> = {}): CustomerInfo {
  return {
    ...emptyCustomerInfo(config),
    firstName: 'דנה',
    lastName: 'לוי',
    email: 'dana@example.com',
    verifyEmailAddress: 'dana@example.com',
    mobileNumber: '052-431-8876',
    acceptedTerms: [1],
    ...overrides,
  };
}

describe('customer details rules', () => {
  it('accepts Israeli ID numbers whose check digit holds, padded to 9 digits', () => {
    expect(isIsraeliId('000000018')).toBe(true);
    expect(isIsraeliId('18')).toBe(true);
    expect(isIsraeliId('123456782')).toBe(true);
    expect(isIsraeliId('123456789')).toBe(false);
    expect(isIsraeliId('000000000')).toBe(false);
    expect(isIsraeliId('1234567890')).toBe(false);
    expect(isIsraeliId('12a')).toBe(false);
  });

  it('reads Israeli mobiles in any common spelling, +972 included', () => {
    for (const raw of [
      '0521234567',
      '052-123-4567',
      '+972521234567',
      '+972-52-123-4567',
      '972 52 123 4567',
      '00972521234567',
      '+972 (0)52 123 4567',
      '\u200e+972 52 123 4567',
    ]) {
      expect(parseIsraeliMobile(raw), raw).toBe('0521234567');
    }
    for (const raw of ['031234567', '+15551234567', '052123456', 'abc']) {
      expect(parseIsraeliMobile(raw), raw).toBeNull();
    }
  });

  it('passes complete details and normalises them as the server does', () => {
    const info = filled({ mobileNumber: '+972 52 431 8876', email: ' Dana@Example.com ' });
    expect(
      validateCustomerInfo({ ...info, verifyEmailAddress: 'dana@example.com' }, config),
    ).toEqual({});
    expect(normaliseCustomerInfo(info)).toMatchObject({
      mobileNumber: '0524318876',
      email: 'dana@example.com',
    });
  });

  it('names each broken rule with the server spelling', () => {
    expect(
      validateCustomerInfo(
        filled({
          firstName: '',
          lastName: 'L3vi',
          email: 'nope',
          verifyEmailAddress: 'other@example.com',
          mobileNumber: '031234567',
          acceptedTerms: [2],
        }),
        config,
      ),
    ).toEqual({
      firstName: 'required',
      lastName: 'alpha',
      email: 'email',
      verifyEmailAddress: 'confirmation',
      mobileNumber: 'mobile',
      terms: 'terms',
    });
  });

  it('checks the ID number, postal code and invoice fields only when they are asked for', () => {
    const withAll = makeConfig({
      customerInfo: {
        ...config.customerInfo,
        ssn: { isIncluded: true, isRequired: true },
        postalCode: { isIncluded: true, isRequired: false },
      },
    });
    expect(validateCustomerInfo(filled({ ssn: '123456789', postalCode: '123' }), withAll)).toEqual({
      ssn: 'idNumber',
      postalCode: 'min',
    });
    expect(validateCustomerInfo(filled({ ssn: '123456789' }), config)).toEqual({});
    expect(
      validateCustomerInfo(filled({ invoiceRequested: true, invoiceSSN: '51-123' }), config),
    ).toEqual({ invoiceName: 'required', invoiceSSN: 'numeric' });
    // As the server judges it: an invoice asked for needs its name and number even where the site
    // offers none (the form then has no box to ask for one).
    const noInvoices = makeConfig({ params: { ...config.params, '66': '0' } });
    expect(validateCustomerInfo(filled({ invoiceRequested: true }), noInvoices)).toEqual({
      invoiceName: 'required',
      invoiceSSN: 'required',
    });
    expect(validateCustomerInfo(filled({ invoiceRequested: false }), noInvoices)).toEqual({});
  });

  it('reads params.fields of a formValidation answer, in any wrapping', () => {
    const body = {
      error: {
        code: 'formValidation',
        message: 'x',
        params: { fields: { email: 'email', firstName: 'required', bogus: 'required', city: 'x' } },
      },
    };
    expect(fieldErrorsFromServer(body)).toEqual({ email: 'email', firstName: 'required' });
    expect(fieldErrorsFromServer(body.error)).toEqual({ email: 'email', firstName: 'required' });
    expect(fieldErrorsFromServer({ error: { code: 'timeExpired', message: 'x' } })).toBeNull();
    expect(fieldErrorsFromServer(null)).toBeNull();
  });

  it('is a zod schema: the normalised details out, or each broken rule in the spec’s words', async () => {
    await i18n.changeLanguage('he');
    const schema = customerInfoSchema(config, ruleWords(i18n.t));
    const good = schema.safeParse(
      filled({ email: ' Dana@Example.com', mobileNumber: '+972 52 431 8876' }),
    );
    expect(good.success && good.data).toMatchObject({
      email: 'dana@example.com',
      mobileNumber: '0524318876',
    });
    const bad = schema.safeParse(filled({ firstName: '', lastName: 'L3vi', email: 'dana@' }));
    expect(bad.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['firstName', 'השדה שם פרטי הוא שדה חובה!'],
      ['lastName', 'חייב להכיל אותיות בלבד!'],
      ['email', 'חייב להיות כתובת אימייל!'],
      ['verifyEmailAddress', 'כתובות האימייל אינן תואמות'],
    ]);
  });
});
