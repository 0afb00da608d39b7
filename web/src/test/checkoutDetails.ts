// The whole-window checkout's details form filled as a buyer does (the ID number a membership or
// an enrolment requires included), in Hebrew or English.
import { screen } from '@testing-library/react';
import type userEvent from '@testing-library/user-event';

export async function fillDetails(
  user: ReturnType<typeof userEvent.setup>,
  lang: 'he' | 'en' = 'en',
) {
  const he = lang === 'he';
  await user.type(await screen.findByLabelText(he ? /^שם פרטי/ : /^First name/), 'Noa');
  await user.type(screen.getByLabelText(he ? /^שם משפחה/ : /^Last name/), 'Barak');
  await user.type(screen.getByLabelText(he ? /^אימייל/ : /^Email/), 'noa@example.com');
  await user.type(
    screen.getByLabelText(he ? /^אימות אימייל/ : /^Confirm email/),
    'noa@example.com',
  );
  await user.type(screen.getByLabelText(he ? /^טלפון נייד/ : /^Mobile number/), '052-4318876');
  await user.type(screen.getByLabelText(he ? /^תעודת זהות/ : /^ID number/), '000000018');
  await user.click(
    screen.getByRole('checkbox', { name: he ? /קראתי ואני מסכים/ : /I have read and agree/ }),
  );
  await user.click(
    screen.getByRole('button', { name: he ? 'המשך לתשלום' : 'Continue to payment' }),
  );
}
