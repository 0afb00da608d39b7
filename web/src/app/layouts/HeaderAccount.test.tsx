import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { renderApp } from '../../test/renderApp';
import { maskedMobile } from './maskedMobile';

// The site header says who is logged in on this session (GET /customer/me) and logs them out.

const customer = {
  customerInfo: { CustomerId: 7, FirstName: 'דנה', LastName: 'לוי', Members: [] },
  mobileNumber: '0524318876',
  loggedInAt: '2026-07-14T16:50:00Z',
  expiresAt: '2026-07-14T18:50:00Z',
  serverTime: '2026-07-14T16:50:00Z',
};
const nobody = { status: 401, body: { error: { code: 'loginError', message: 'no login' } } };

let session: { login: unknown };

beforeEach(() => {
  session = { login: customer };
});

function api(url: URL) {
  switch (url.pathname) {
    case '/api/customer/me':
      return session.login ? { body: session.login } : nobody;
    case '/api/customer/logout':
      session.login = null;
      return { body: { success: true } };
    case '/api/seats/presentations':
    case '/api/presentations/':
      return { body: { presentations: [], serverTime: '2026-07-14T16:50:00Z' } };
    default:
      return undefined;
  }
}

const header = () => screen.getByRole('banner');
const banner = () => screen.findByRole('banner');

describe('the header says who is logged in', () => {
  it("shows the customer's first name and logs out", async () => {
    const user = userEvent.setup();
    const { fetchMock } = await renderApp('/', { api });
    const account = await within(await banner()).findByRole('region', { name: 'החשבון שלי' });
    expect(account).toHaveTextContent('שלום, דנה');

    await user.click(within(account).getByRole('button', { name: 'יציאה' }));
    await waitFor(() =>
      expect(within(header()).queryByRole('region', { name: 'החשבון שלי' })).toBeNull(),
    );
    const logout = fetchMock.mock.calls.find(
      ([input]) => new URL(String(input), 'http://localhost').pathname === '/api/customer/logout',
    );
    expect(((logout as unknown[] | undefined)?.[1] as RequestInit | undefined)?.method).toBe(
      'POST',
    );
  });

  it('shows the masked number for a proven number with no customer account', async () => {
    session.login = { ...customer, customerInfo: null };
    await renderApp('/', { api });
    const account = await within(await banner()).findByRole('region', { name: 'החשבון שלי' });
    expect(account).toHaveTextContent('נייד 052-•••-8876');
    expect(account).not.toHaveTextContent('0524318876');
  });

  it('shows nothing when nobody is logged in', async () => {
    session.login = null;
    const { fetchMock } = await renderApp('/', { api });
    await banner();
    await waitFor(() =>
      expect(
        fetchMock.mock.calls.some(
          ([input]) => new URL(String(input), 'http://localhost').pathname === '/api/customer/me',
        ),
      ).toBe(true),
    );
    expect(within(header()).queryByRole('region', { name: 'החשבון שלי' })).toBeNull();
    expect(within(header()).queryByRole('button', { name: 'יציאה' })).toBeNull();
  });
});

describe('maskedMobile', () => {
  it('keeps the prefix and the last four digits', () => {
    expect(maskedMobile('0524318876')).toBe('052-•••-8876');
    expect(maskedMobile('052-4318876')).toBe('052-•••-8876');
  });
});
