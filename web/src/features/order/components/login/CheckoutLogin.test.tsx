import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { customerKeys } from '../../../../lib/api/customer';
import i18n from '../../../../lib/i18n';
import { mockApi } from '../../../../test/renderApp';
import { CheckoutLogin } from './CheckoutLogin';

const login = {
  customerInfo: { FirstName: 'דנה', LastName: 'לוי', Members: [] },
  mobileNumber: '0524318876',
  loggedInAt: '2026-07-14T09:00:00Z',
  expiresAt: '2026-07-14T11:00:00Z',
  serverTime: '2026-07-14T09:00:00Z',
};

function setup(
  answers: Record<string, Array<{ status: number; body: unknown }>>,
  initialMobile?: string,
) {
  const fetchMock = mockApi(null, (url) => answers[url.pathname]?.shift());
  const queryClient = new QueryClient();
  const onLoggedIn = vi.fn();
  render(
    <QueryClientProvider client={queryClient}>
      <CheckoutLogin
        reason="member"
        captcha={async () => 'kupa-test-captcha'}
        onLoggedIn={onLoggedIn}
        initialMobile={initialMobile}
      />
    </QueryClientProvider>,
  );
  const bodies = (path: string) =>
    fetchMock.mock.calls
      .filter(([input]) => new URL(String(input), 'http://localhost').pathname === path)
      .map((call) =>
        JSON.parse(String((call as unknown[])[1] && ((call as unknown[])[1] as RequestInit).body)),
      );
  return { onLoggedIn, bodies, queryClient };
}

beforeEach(async () => {
  await i18n.changeLanguage('he');
});

describe('checkout login by mobile number and SMS code', () => {
  it('sends a code to the number, takes the 6 digits and logs the buyer in', async () => {
    const user = userEvent.setup();
    const { onLoggedIn, bodies, queryClient } = setup({
      '/api/customer/mobile-login': [{ status: 200, body: { success: true } }],
      '/api/customer/mobile-login-validation-area': [
        {
          status: 401,
          body: {
            error: {
              code: 'INVALID_SMS_CODE',
              message: 'wrong',
              params: { reason: 'wrong', attemptsLeft: 4 },
            },
          },
        },
        { status: 200, body: login },
      ],
    });
    expect(screen.getByRole('region', { name: 'כניסה עם מספר נייד' })).toBeInTheDocument();
    expect(screen.getByText(/כרטיסי חברי מועדון דורשים כניסה/)).toBeInTheDocument();

    await user.type(screen.getByLabelText('מספר טלפון נייד'), '052-431-8876');
    await user.click(screen.getByRole('button', { name: 'שליחת קוד' }));
    expect(await screen.findByText('שלחנו קוד בן 6 ספרות ב-SMS למספר 0524318876.')).toBeVisible();
    expect(bodies('/api/customer/mobile-login')).toEqual([
      {
        mobileNumber: '0524318876',
        recaptchaToken: 'kupa-test-captcha',
        sendSmsRegardlessOfCustomerExistence: true,
      },
    ]);

    const code = screen.getByLabelText('קוד מה-SMS');
    await user.type(code, '12345');
    await user.click(screen.getByRole('button', { name: 'כניסה' }));
    expect(screen.getByRole('alert')).toHaveTextContent('הקוד הוא 6 ספרות');
    expect(bodies('/api/customer/mobile-login-validation-area')).toEqual([]);

    await user.type(code, '6');
    await user.click(screen.getByRole('button', { name: 'כניסה' }));
    expect(await screen.findByText('הקוד שגוי. נותרו 4 ניסיונות')).toBeVisible();
    expect(onLoggedIn).not.toHaveBeenCalled();

    await user.clear(code);
    await user.type(code, '654321');
    await user.click(screen.getByRole('button', { name: 'כניסה' }));
    await vi.waitFor(() => expect(onLoggedIn).toHaveBeenCalledTimes(1));
    expect(bodies('/api/customer/mobile-login-validation-area').at(-1)).toEqual({
      mobileNumber: '0524318876',
      smsCode: '654321',
    });
    expect(queryClient.getQueryData(customerKeys.me)).toEqual(login);
  });

  it('starts from the mobile number the buyer typed in the details', () => {
    setup({}, '0524318876');
    expect(screen.getByRole('textbox', { name: /נייד/ })).toHaveValue('0524318876');
  });

  it('refuses a number that is not an Israeli mobile before sending anything', async () => {
    const user = userEvent.setup();
    const { bodies } = setup({});
    await user.type(screen.getByLabelText('מספר טלפון נייד'), '03-1234567');
    await user.click(screen.getByRole('button', { name: 'שליחת קוד' }));
    expect(screen.getByRole('alert')).toHaveTextContent('מספר הטלפון הנייד אינו תקין');
    expect(bodies('/api/customer/mobile-login')).toEqual([]);
  });

  it('says how long to wait when a new code is asked for too soon, in English too', async () => {
    await i18n.changeLanguage('en');
    const user = userEvent.setup();
    setup({
      '/api/customer/mobile-login': [
        { status: 200, body: { success: true } },
        {
          status: 429,
          body: {
            error: { code: 'smsResendTooSoon', message: 'x', params: { retryAfterSeconds: 21 } },
          },
        },
      ],
    });
    await user.type(screen.getByLabelText('Mobile number'), '0524318876');
    await user.click(screen.getByRole('button', { name: 'Send code' }));
    await user.click(await screen.findByRole('button', { name: 'Send a new code' }));
    expect(await screen.findByText('You can ask for a new code in 21 seconds')).toBeVisible();
  });
});
