import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderApp, type ApiHandler } from '../../test/renderApp';
import { makeCustomerLogin } from '../../test/fixtures';

/** A busy machine renders the first page slowly (the app's lazy routes, the config). */
const SLOW = { timeout: 5000 };

const popcorn = {
  id: 3,
  name: 'פופקורן גדול',
  nameEn: 'Large popcorn',
  category: 'popcorn',
  price: 2900,
  currency: 'ILS',
  img: '/api/products/3/image',
  selectedQuantity: 0,
};

const classes = {
  maxQuantityForVouchers: 10,
  products: [popcorn],
  systemVouchers: [
    {
      id: 2,
      superClassId: 1,
      name: 'כרטיס מתנה',
      nameEn: 'Gift card',
      description: 'לכל סרט',
      descriptionEn: 'For any film',
      prices: [{ id: 21, price: 5000 }],
      openPrice: null,
      benefits: [],
      validDays: 365,
      terms: 'תנאים',
      termsEn: 'Terms',
      boxOfficeOnly: false,
    },
    {
      id: 5,
      superClassId: 4,
      name: 'מועדון הסרטים לילדים',
      nameEn: "Kids' film club",
      description: 'חמישה כרטיסי ילד',
      descriptionEn: 'Five child tickets',
      prices: [{ id: 51, price: 12000 }],
      openPrice: null,
      benefits: [{ name: 'כרטיס ילד', nameEn: 'Child ticket', quantity: 5, product: false }],
      validDays: 180,
      terms: 'תנאים',
      termsEn: 'Terms',
      boxOfficeOnly: false,
      waiver: { minAge: 4, maxAge: 12, text: 'הסכמת הורה', textEn: "A parent's consent" },
    },
  ],
};

const login = makeCustomerLogin();

function api(loggedIn: boolean): ApiHandler {
  return (url) => {
    if (url.pathname === '/api/system-vouchers') return { body: classes };
    if (url.pathname === '/api/customer/me') {
      return loggedIn
        ? { body: login }
        : { status: 401, body: { error: { code: 'loginError', message: 'log in first' } } };
    }
    return undefined;
  };
}

describe('the vouchers flow', { timeout: 30_000 }, () => {
  it('asks a buyer nobody knows to log in or sign up, the choice kept in the way back', async () => {
    const { getRouter } = await renderApp('/system-vouchers?lang=en', { api: api(false) });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: /^More: Gift card/ }, SLOW));
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(
      await screen.findByRole('heading', { name: 'Log in to your account' }),
    ).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Your details' })).not.toBeInTheDocument();
    // The address carries the choice, so a reload or the login's way back keeps it.
    const search = new URLSearchParams(getRouter()?.state.location.search);
    expect(search.get('choice')).toBe('2:21*1');
    expect(search.get('step')).toBe('checkout');
    const logIn = screen.getByRole('link', { name: 'Log in' });
    const target = new URL(logIn.getAttribute('href') ?? '', 'http://localhost');
    expect(target.pathname).toBe('/customer-area/login');
    expect(target.searchParams.get('lang')).toBe('en');
    expect(target.searchParams.get('returnTo')).toBe(
      '/system-vouchers?lang=en&choice=2%3A21*1&step=checkout',
    );
    const signUp = new URL(
      screen.getByRole('link', { name: 'Open a new account' }).getAttribute('href') ?? '',
      'http://localhost',
    );
    expect(signUp.searchParams.get('register')).toBe('1');
    // Changing the choice goes back to it, as chosen.
    await user.click(screen.getByRole('button', { name: /Change/ }));
    expect(await screen.findByText('1', { selector: 'output' })).toBeInTheDocument();
  });

  it('offers a logged-in buyer the extras, skipped to their details', async () => {
    const { getRouter } = await renderApp('/system-vouchers?lang=en&choice=2:21*1&step=checkout', {
      api: api(true),
    });
    const user = userEvent.setup();
    expect(
      await screen.findByRole('heading', { name: 'Extras for the gift' }, SLOW),
    ).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Log in to your account' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Skip, no extras' }));
    expect(await screen.findByRole('heading', { name: 'Your details' })).toBeInTheDocument();
    const search = new URLSearchParams(getRouter()?.state.location.search);
    expect(search.get('extras')).toBeNull();
    expect(search.get('step')).toBe('details');
    expect(screen.getByText(/1 × Gift card/)).toBeInTheDocument();
  });

  it('adds the extras chosen to the summary and the total, kept in the address', async () => {
    const { getRouter } = await renderApp('/system-vouchers?lang=en&choice=2:21*1&step=checkout', {
      api: api(true),
    });
    const user = userEvent.setup();
    const more = await screen.findByRole('button', { name: 'One more Large popcorn' }, SLOW);
    await user.click(more);
    await user.click(more);
    await user.click(screen.getByRole('button', { name: /^Add \(.*58.*\) and continue$/ }));
    expect(await screen.findByRole('heading', { name: 'Your details' })).toBeInTheDocument();
    expect(new URLSearchParams(getRouter()?.state.location.search).get('extras')).toBe('3*2');
    expect(screen.getByText(/2 × Large popcorn/)).toBeInTheDocument();
    await waitFor(() => expect(screen.getByText(/108\.00/)).toBeInTheDocument());
  });

  it('puts the waiver step after the login when a chosen voucher asks for one', async () => {
    const { getRouter } = await renderApp('/system-vouchers?lang=en&choice=5:51*1&step=checkout', {
      api: api(true),
    });
    expect(
      await screen.findByRole('heading', { name: 'Children and waiver' }, SLOW),
    ).toBeInTheDocument();
    expect(screen.getByText("A parent's consent")).toBeInTheDocument();
    const steps = screen.getByRole('list', { name: 'Order steps' });
    expect(within(steps).getByText('Waiver')).toHaveAttribute('aria-current', 'step');
    // Nothing of the waiver goes in the address.
    const search = new URLSearchParams(getRouter()?.state.location.search);
    expect([...search.keys()].sort()).toEqual(['choice', 'lang', 'step']);
  });

  it('asks no waiver of a gift card', async () => {
    await renderApp('/system-vouchers?lang=en&choice=2:21*1&step=checkout', { api: api(true) });
    expect(
      await screen.findByRole('heading', { name: 'Extras for the gift' }, SLOW),
    ).toBeInTheDocument();
    expect(screen.queryByText('Waiver')).toBeNull();
  });
});
