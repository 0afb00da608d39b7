import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api/client';
import i18n from '../../lib/i18n';
import { asShownError, enrollErrorWords } from './refusal';

describe("the enrolment's refusals in words", () => {
  const t = i18n.getFixedT('en');

  it("says the cart's enrolment reasons and the member's codes in the enrolment's words", () => {
    expect(
      enrollErrorWords(
        t,
        new ApiError(400, 'formValidation', 'x', {
          reason: 'requiredPresentations',
          missing: [902],
        }),
      ),
    ).toBe('Every required screening of the season must be in the order.');
    expect(enrollErrorWords(t, new ApiError(409, 'ALREADY_ENROLLED', 'x'))).toBe(
      'This member is already enrolled in this season.',
    );
    expect(enrollErrorWords(t, new ApiError(409, 'memberNoneAvailable', 'x'))).toBe(
      'The pass balance does not cover the part of the tickets it pays.',
    );
  });

  it('leaves other codes to the catalogue, and a field refusal to the details form', () => {
    expect(enrollErrorWords(t, new ApiError(400, 'recaptcha', 'x'))).toBe(t('errors.recaptcha'));
    const fields = new ApiError(400, 'formValidation', 'x', { fields: ['ssn'] });
    expect(asShownError(t, fields)).toBe(fields);
    const shown = asShownError(
      t,
      new ApiError(400, 'formValidation', 'x', { reason: 'notInSeason' }),
    );
    expect(shown).toBeInstanceOf(ApiError);
    expect((shown as ApiError).message).toBe('A screening is not part of this season.');
  });
});
