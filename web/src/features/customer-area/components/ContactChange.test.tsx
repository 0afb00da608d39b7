import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../../../test/renderApp';
import { makeArea } from '../testing/area';

type Call = [RequestInfo, RequestInit | undefined];

describe('changing the email or the mobile number from the profile', { timeout: 30_000 }, () => {
  it('changes the email only after the mailed code comes back, and says a wrong code', async () => {
    let email = 'dana.levi@example.com';
    const { fetchMock } = await renderApp('/customer-area?lang=en', {
      api: (url, init) => {
        if (url.pathname === '/api/customer-area/customerAreaData')
          return {
            body: makeArea({ EmailAddress1: email, MobileNumber1: '+972524318876' }),
          };
        if (url.pathname === '/api/customer/locations') return { body: { locations: [] } };
        if (url.pathname === '/api/customer-area/holds') return { body: { holds: [] } };
        if (url.pathname === '/api/customer-area/email-change') return { body: { success: true } };
        if (url.pathname === '/api/customer-area/email-change/confirm') {
          const body = JSON.parse(String(init?.body)) as { code: string };
          if (body.code !== '123456')
            return {
              status: 410,
              body: {
                error: { code: 'CUSTOMER_TOKEN_ERROR', message: 'x', params: { reason: 'wrong' } },
              },
            };
          email = 'dana.new@example.com';
          return { body: { EmailAddress1: email, MobileNumber1: '0524318876' } };
        }
        return undefined;
      },
    });
    const user = userEvent.setup();
    const profile = await screen.findByRole('region', { name: 'Profile' });
    // A stored +972 number is shown with a leading 0.
    expect(profile).toHaveTextContent('0524318876');
    await user.click(within(profile).getByRole('button', { name: 'Change email address' }));
    const form = within(profile).getByRole('form', { name: 'Change email address' });
    await user.type(within(form).getByLabelText('New email address'), 'dana.new@example.com');
    await user.click(within(form).getByRole('button', { name: 'Send code' }));
    expect(
      await within(form).findByText(/We mailed a 6-digit code to dana.new@example.com/),
    ).toBeVisible();
    const calls = () => fetchMock.mock.calls as unknown as Call[];
    const sent = calls().find(([u]) => String(u).endsWith('/api/customer-area/email-change'));
    expect(JSON.parse(String(sent?.[1]?.body))).toMatchObject({ email: 'dana.new@example.com' });
    // Nothing changed yet.
    expect(profile).toHaveTextContent('dana.levi@example.com');

    await user.type(within(form).getByLabelText('Code from the mail'), '000000');
    await user.click(within(form).getByRole('button', { name: 'Confirm the change' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent(
      'The code is not right. Check it, or send a new code.',
    );
    expect(profile).toHaveTextContent('dana.levi@example.com');

    await user.clear(within(form).getByLabelText('Code from the mail'));
    await user.type(within(form).getByLabelText('Code from the mail'), '123456');
    await user.click(within(form).getByRole('button', { name: 'Confirm the change' }));
    expect(
      await within(profile).findByText('Your email address is now dana.new@example.com.'),
    ).toBeVisible();
    await waitFor(() => expect(profile).toHaveTextContent('dana.new@example.com'));
    const confirmed = calls().filter(([u]) => String(u).endsWith('/email-change/confirm'));
    expect(confirmed.map(([, i]) => JSON.parse(String(i?.body)) as unknown)).toEqual([
      { email: 'dana.new@example.com', code: '000000' },
      { email: 'dana.new@example.com', code: '123456' },
    ]);
  });

  it('says a number of another account is taken, and sends the SMS code for a free one', async () => {
    await renderApp('/customer-area?lang=en', {
      api: (url, init) => {
        if (url.pathname === '/api/customer-area/customerAreaData')
          return {
            body: makeArea({ EmailAddress1: 'd@example.com' }),
          };
        if (url.pathname === '/api/customer/locations') return { body: { locations: [] } };
        if (url.pathname === '/api/customer-area/holds') return { body: { holds: [] } };
        if (url.pathname === '/api/customer-area/mobile-change') {
          const body = JSON.parse(String(init?.body)) as { mobileNumber: string };
          return body.mobileNumber === '0507712345'
            ? { status: 409, body: { error: { code: 'mobileNumberTaken', message: 'x' } } }
            : { body: { success: true } };
        }
        return undefined;
      },
    });
    const user = userEvent.setup();
    const profile = await screen.findByRole('region', { name: 'Profile' });
    await user.click(within(profile).getByRole('button', { name: 'Change mobile number' }));
    const form = within(profile).getByRole('form', { name: 'Change mobile number' });
    await user.type(within(form).getByLabelText('New mobile number'), '0507712345');
    await user.click(within(form).getByRole('button', { name: 'Send code' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent(
      'This number belongs to another account',
    );
    await user.clear(within(form).getByLabelText('New mobile number'));
    await user.type(within(form).getByLabelText('New mobile number'), '052-111-2233');
    await user.click(within(form).getByRole('button', { name: 'Send code' }));
    expect(
      await within(form).findByText(/We sent a 6-digit code by SMS to 052-111-2233/),
    ).toBeVisible();
    expect(within(form).getByLabelText('Code from the SMS')).toBeVisible();
  });
});
