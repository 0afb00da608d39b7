import { describe, expect, it } from 'vitest';
import {
  localMobile,
  plateDigits,
  profileBody,
  profileProblems,
  serverFieldErrors,
  type ProfileValues,
} from './profile';

const good: ProfileValues = {
  firstName: 'דנה',
  lastName: 'לוי-כהן',
  address1: 'דיזנגוף 210',
  address2: '',
  city: 'תל אביב-יפו',
  postalCode: '6311712',
  dateOfBirth: '1986-04-17',
  licensePlateNumber: '12-345-67',
  location: '2',
  isSMSAllowed: true,
  isMailingAllowed: false,
  isEmailAllowed: true,
};
const NOW = new Date('2030-06-12T09:00:00Z');

describe('the profile form', () => {
  it('passes good values and sends them in the server’s shape', () => {
    expect(profileProblems(good, NOW)).toEqual({});
    expect(profileBody(good)).toEqual({
      firstName: 'דנה',
      lastName: 'לוי-כהן',
      address1: 'דיזנגוף 210',
      address2: '',
      city: 'תל אביב-יפו',
      postalCode: '6311712',
      dateOfBirth: '1986-04-17',
      licensePlateNumber: '1234567',
      isSMSAllowed: true,
      isMailingAllowed: false,
      isEmailAllowed: true,
      location: 2,
    });
    expect(profileBody({ ...good, location: '' }).location).toBeNull();
  });

  it('names each broken field with the server’s rule', () => {
    expect(
      profileProblems(
        {
          ...good,
          firstName: ' ',
          lastName: 'L3vi',
          postalCode: '123',
          dateOfBirth: '2031-01-01',
          licensePlateNumber: 'AB-123',
          city: 'x'.repeat(51),
        },
        NOW,
      ),
    ).toEqual({
      firstName: 'required',
      lastName: 'alpha',
      postalCode: 'min',
      dateOfBirth: 'date',
      licensePlateNumber: 'plate',
      city: 'max',
    });
    expect(profileProblems({ ...good, postalCode: '63a1171' }, NOW).postalCode).toBe('numeric');
    expect(profileProblems({ ...good, dateOfBirth: '1986-02-30' }, NOW).dateOfBirth).toBe('date');
    expect(profileProblems({ ...good, dateOfBirth: '1899-12-31' }, NOW).dateOfBirth).toBe('date');
  });

  it('lets the optional fields stay empty', () => {
    const bare = {
      ...good,
      address1: '',
      city: '',
      postalCode: '',
      dateOfBirth: '',
      licensePlateNumber: '',
      location: '',
    };
    expect(profileProblems(bare, NOW)).toEqual({});
  });

  it('reads the server’s field errors and the plate and number forms', () => {
    expect(
      serverFieldErrors({ fields: { lastName: 'alpha', location: 'location', nonsense: 'x' } }),
    ).toEqual({ lastName: 'alpha', location: 'location' });
    expect(serverFieldErrors(undefined)).toEqual({});
    expect(plateDigits(' 12 345 678 ')).toBe('12345678');
    expect(plateDigits('12A')).toBe('12A');
    expect(localMobile('+972524318876')).toBe('0524318876');
    expect(localMobile('0524318876')).toBe('0524318876');
  });
});
