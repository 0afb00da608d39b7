import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeConfig } from '../../test/fixtures';
import { renderApp } from '../../test/renderApp';

const error = (status: number, code: string, params?: Record<string, unknown>) => ({
  status,
  body: { error: { code, message: code, params } },
});

describe('the customer-area login page', () => {
  it('offers the methods of the site config, the configured one first', async () => {
    await renderApp('/customer-area/login?lang=en', {
      config: makeConfig({
        customerAreaLoginMethod: 'byMemberNumberAndSsn',
        customerLoginMethods: ['byPhone', 'byMemberNumberAndSsn'],
      }),
    });
    const tabs = await screen.findAllByRole('tab');
    expect(tabs.map((t) => t.textContent)).toEqual(['Member number & ID', 'Mobile & SMS code']);
    expect(tabs[0]).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByLabelText('ID number')).toBeInTheDocument();
  });

  it('sends the code, then the code alone, and goes to the customer area', async () => {
    const calls: string[] = [];
    const { fetchMock, getRouter } = await renderApp('/customer-area/login?lang=en', {
      api: (url) => {
        calls.push(url.pathname);
        if (url.pathname === '/api/customer-area/mobile-login') return { body: { success: true } };
        if (url.pathname === '/api/customer-area/mobile-login-validation')
          return { body: { customerAreaInfo: null, mobileNumber: '0524318876' } };
        if (url.pathname === '/api/customer/me') return error(401, 'loginError');
        return undefined;
      },
    });
    fireEvent.change(await screen.findByLabelText('Mobile number'), {
      target: { value: '052-4318876' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Send code' }));
    fireEvent.change(await screen.findByLabelText('Code from the SMS'), {
      target: { value: '123456' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }));
    await waitFor(() => expect(getRouter()?.state.location.pathname).toBe('/customer-area'));
    const validation = fetchMock.mock.calls.find(([u]) =>
      String(u).endsWith('/customer-area/mobile-login-validation'),
    );
    const init = (validation as unknown[] | undefined)?.[1] as RequestInit | undefined;
    expect(JSON.parse(String(init?.body))).toEqual({ smsCode: '123456' });
    expect(calls).toContain('/api/customer-area/mobile-login');
  });

  it('says when a used link was used, with its date', async () => {
    await renderApp('/customer-area/token-login?lang=en&token=abc', {
      api: (url) =>
        url.pathname === '/api/customer/token-login'
          ? error(410, 'CUSTOMER_TOKEN_REDEEMED', { redeemedAt: '2030-06-12T07:00:00Z' })
          : undefined,
    });
    expect(await screen.findByRole('alert')).toHaveTextContent(
      /already used on 12\/06\/2030, 10:00/,
    );
    expect(screen.getByRole('link', { name: 'Back to login' })).toHaveAttribute(
      'href',
      '/customer-area/login?lang=en',
    );
  });

  it('shows the wait of a locked account in minutes', async () => {
    await renderApp('/customer-area/login?lang=en&method=email', {
      api: (url) =>
        url.pathname === '/api/customer/login'
          ? error(429, 'tooManyLoginAttempts', { retryAfterSeconds: 600 })
          : undefined,
    });
    fireEvent.change(await screen.findByLabelText('Email address'), {
      target: { value: 'a@example.com' },
    });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'whatever 1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Try again in 10 minutes');
  });

  it('asks a new customer for a new password with its rule, a returning one for theirs', async () => {
    await renderApp('/customer-area/login?lang=en&method=email&register=1');
    const fresh = await screen.findByLabelText('Password');
    expect(fresh).toHaveAttribute('autocomplete', 'new-password');
    expect(fresh).toHaveAccessibleDescription('At least 8 characters, not only digits');
    expect(screen.getByLabelText('Email address')).toHaveAttribute('type', 'email');
    fireEvent.click(screen.getByRole('button', { name: 'I have an account' }));
    const theirs = await screen.findByLabelText('Password');
    expect(theirs).toHaveAttribute('autocomplete', 'current-password');
    expect(theirs).not.toHaveAccessibleDescription();
    fireEvent.click(screen.getByRole('button', { name: 'Forgot password' }));
    expect(await screen.findByRole('button', { name: 'I have an account' })).toBeVisible();
    expect(screen.getByLabelText('Email address')).toHaveAttribute('autocomplete', 'email');
    expect(screen.queryByLabelText('Password')).toBeNull();
  });
});
