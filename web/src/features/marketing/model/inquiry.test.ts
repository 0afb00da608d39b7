import { describe, expect, it } from 'vitest';
import { emptyValues, inquiryBody, inquiryProblems, isIsraeliMobile } from './inquiry';

const today = '2030-06-12';

describe("the marketing forms' rules (the server's)", () => {
  it('a contact message needs a name, an address and a message', () => {
    expect(inquiryProblems('contact', emptyValues(), today)).toEqual({
      fullName: 'required',
      email: 'required',
      message: 'required',
    });
    const v = {
      ...emptyValues(),
      fullName: 'Dana 7',
      email: 'dana@',
      mobileNumber: '123',
      message: 'hi',
    };
    expect(inquiryProblems('contact', v, today)).toEqual({
      fullName: 'alpha',
      email: 'email',
      mobileNumber: 'mobile',
    });
  });

  it('a birthday needs a complex, a date from tomorrow and guests in range', () => {
    const v = {
      ...emptyValues(),
      fullName: 'דנה לוי',
      email: 'dana@example.com',
      mobileNumber: '+972 52-431-8876',
      locationId: '2',
      partyDate: today,
      guests: '4',
      childAge: '19',
    };
    expect(inquiryProblems('birthday', v, today)).toEqual({
      partyDate: 'min',
      guests: 'min',
      childAge: 'max',
    });
    const good = { ...v, partyDate: '2030-06-20', guests: '20', childAge: '8' };
    expect(inquiryProblems('birthday', good, today)).toEqual({});
    expect(inquiryBody('birthday', good)).toMatchObject({ locationId: 2, guests: 20, childAge: 8 });
    expect(inquiryProblems('birthday', { ...good, partyDate: '2031-07-01' }, today)).toEqual({
      partyDate: 'max',
    });
  });

  it('a job application needs a position and a mobile number', () => {
    const v = { ...emptyValues(), fullName: 'Yossi Cohen', email: 'yossi@example.com' };
    expect(inquiryProblems('job', v, today)).toEqual({
      mobileNumber: 'required',
      position: 'required',
    });
    expect(inquiryBody('job', { ...v, partyDate: 'x' }).partyDate).toBe('');
  });

  it('reads Israeli mobiles in their common spellings', () => {
    for (const ok of ['0524318876', '052-431-8876', '+972 52 431 8876', '972524318876']) {
      expect(isIsraeliMobile(ok), ok).toBe(true);
    }
    for (const bad of ['031234567', '05243188', '+1 555 1234567']) {
      expect(isIsraeliMobile(bad), bad).toBe(false);
    }
  });
});
