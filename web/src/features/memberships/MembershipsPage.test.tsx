import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fillDetails } from '../../test/checkoutDetails';
import { renderApp, type ApiHandler } from '../../test/renderApp';
import type { Membership, MembershipCatalogue } from '../../lib/api/memberships';
import { makeCustomerLogin } from '../../test/fixtures';

/** A busy machine renders the first page slowly (the app's lazy routes, the config). */
const SLOW = { timeout: 5000 };

const ILS = { CurrencyId: 1, CurrencySymbol: '₪', CurrencyCode: 'ILS' };

function membership(
  id: number,
  name: string,
  nameEn: string,
  prices: [number, number, number][],
  extra: Partial<Membership> = {},
): Membership {
  return {
    MembershipId: id,
    MembershipTypeId: 1,
    Name: name,
    NameEn: nameEn,
    Code: `M${id}`,
    ClassName: '',
    Description: 'תיאור',
    DescriptionEn: `About the ${nameEn}`,
    prices: prices.map(([priceId, price, value]) => ({
      MembershipPriceId: priceId,
      PriceCode: `P${priceId}`,
      Price: price,
      value,
      currency: ILS,
      references: [],
    })),
    validMonths: 12,
    topUp: false,
    terms: { termsId: id, text: 'תנאים', textEn: `Terms of the ${nameEn}` },
    ...extra,
  };
}

const club = membership(1, 'כרטיס מועדון', 'Club card', [[100, 9900, 9900]]);
const pass = membership(
  2,
  'כרטיסיית 10 סרטים',
  '10-film pass',
  [
    [201, 33000, 35000],
    [202, 17500, 17500],
  ],
  { MembershipTypeId: 2, topUp: true },
);
const student = membership(3, 'כרטיס סטודנט', 'Student card', [[300, 4900, 4900]]);
student.prices[0].references = [
  {
    key: 'reference1',
    label: 'מספר תעודת סטודנט',
    labelEn: 'Student card number',
    pattern: '^[0-9]{5,10}$',
  },
];
const teacher = membership(4, 'כרטיס מורה', 'Teacher card', [[400, 3900, 3900]]);
teacher.prices[0].references = [
  { key: 'reference1', label: 'מספר מורה', labelEn: 'Teacher number', pattern: '^T[0-9]{4}$' },
];

const catalogue: MembershipCatalogue = {
  memberships: [club, pass, student, teacher],
  maxQuantityForMembership: 1,
};

const login = makeCustomerLogin();

interface Carts {
  bodies: unknown[];
}

function api(
  loggedIn: boolean,
  cart: { status: number; body: unknown } = { status: 200, body: { orderType: 'memberships' } },
  carts: Carts = { bodies: [] },
): ApiHandler {
  return (url, init) => {
    if (url.pathname === '/api/memberships') return { body: catalogue };
    if (url.pathname === '/api/customer/me') {
      return loggedIn
        ? { body: login }
        : { status: 401, body: { error: { code: 'loginError', message: 'log in first' } } };
    }
    if (url.pathname === '/api/cart' && init?.method === 'POST') {
      carts.bodies.push(JSON.parse(String(init.body)));
      return cart;
    }
    return undefined;
  };
}

function search(getRouter: () => { state: { location: { search: string } } } | undefined) {
  return new URLSearchParams(getRouter()?.state.location.search);
}

describe('the memberships flow', { timeout: 30_000 }, () => {
  it('shows the cards, and allows at most maxQuantityForMembership of a membership', async () => {
    const { getRouter } = await renderApp('/memberships?lang=en', { api: api(false) });
    const user = userEvent.setup();
    const card = (await screen.findByRole('region', { name: '10-film pass' }, SLOW)) as HTMLElement;
    expect(within(card).getByText('About the 10-film pass')).toBeInTheDocument();
    expect(within(card).getByText(/Valid for 12 months from the day you pay/)).toBeInTheDocument();
    expect(within(card).getByText('Terms of the 10-film pass')).toBeInTheDocument();
    const ten = within(card).getByRole('button', {
      name: /^More: 10-film pass .*330.*balance .*350/,
    });
    const five = within(card).getByRole('button', { name: /^More: 10-film pass .*175/ });
    const cont = screen.getByRole('button', { name: 'Continue' });
    expect(cont).toBeDisabled();
    await user.click(ten);
    // One of this membership already: no more of either of its prices.
    expect(ten).toBeDisabled();
    expect(five).toBeDisabled();
    // Another membership is still open.
    const clubMore = screen.getByRole('button', { name: /^More: Club card/ });
    expect(clubMore).toBeEnabled();
    await user.click(clubMore);
    expect(clubMore).toBeDisabled();
    await waitFor(() => expect(screen.getByText(/429\.00/)).toBeInTheDocument());
    await user.click(cont);
    // Nothing to fill for these: straight to the auth step, the choice in the address.
    expect(
      await screen.findByRole('heading', { name: 'Log in to your account' }),
    ).toBeInTheDocument();
    expect(screen.getByText(/A membership is kept in its member's account/)).toBeInTheDocument();
    expect(search(getRouter).get('choice')).toBe('2:201*1,1:100*1');
    expect(search(getRouter).get('step')).toBe('checkout');
    const logIn = new URL(
      screen.getByRole('link', { name: 'Log in' }).getAttribute('href') ?? '',
      'http://localhost',
    );
    expect(logIn.searchParams.get('returnTo')).toBe(
      '/memberships?lang=en&choice=2%3A201*1%2C1%3A100*1&step=checkout',
    );
  });

  it('refuses a reference that does not match its pattern', async () => {
    const { getRouter } = await renderApp('/memberships?lang=en', { api: api(false) });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: /^More: Student card/ }, SLOW));
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    const field = await screen.findByLabelText(/^Student card number/);
    expect(screen.getByRole('heading', { name: 'Member details: Student card' })).toBeVisible();
    // Only one membership asks: no "1 of 1".
    expect(screen.queryByText(/Membership 1 of/)).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Please fill in: Student card number',
    );
    await user.type(field, '12a4');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(screen.getByRole('alert')).toHaveTextContent('This is not a valid Student card number');
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(search(getRouter).get('step')).toBe('members');
    await user.clear(field);
    await user.type(field, '123456');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(
      await screen.findByRole('heading', { name: 'Log in to your account' }),
    ).toBeInTheDocument();
    expect(JSON.parse(search(getRouter).get('refs') ?? '{}')).toEqual({
      '3:300': { reference1: '123456' },
    });
  });

  it('steps through two memberships with details with next and previous', async () => {
    const { getRouter } = await renderApp('/memberships?lang=en', { api: api(false) });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: /^More: Student card/ }, SLOW));
    await user.click(screen.getByRole('button', { name: /^More: Teacher card/ }));
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('Membership 1 of 2')).toBeInTheDocument();
    await user.type(screen.getByLabelText(/^Student card number/), '55555');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('Membership 2 of 2')).toBeInTheDocument();
    expect(search(getRouter).get('at')).toBe('1');
    const teacherField = screen.getByLabelText(/^Teacher number/);
    await user.type(teacherField, 'T12');
    // Previous keeps what was typed on both.
    await user.click(screen.getByRole('button', { name: 'Previous' }));
    expect(await screen.findByText('Membership 1 of 2')).toBeInTheDocument();
    expect(screen.getByLabelText(/^Student card number/)).toHaveValue('55555');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByLabelText(/^Teacher number/)).toHaveValue('T12');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(screen.getByRole('alert')).toHaveTextContent('This is not a valid Teacher number');
    await user.type(screen.getByLabelText(/^Teacher number/), '34');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(
      await screen.findByRole('heading', { name: 'Log in to your account' }),
    ).toBeInTheDocument();
    // Back from the first one's "Previous" is the choice, as chosen.
    await user.click(screen.getByRole('button', { name: /Change/ }));
    expect(await screen.findAllByText('1', { selector: 'output' })).toHaveLength(2);
  });

  it('sends an address edited past the details back to the first answer that is not right', async () => {
    await renderApp('/memberships?lang=en&choice=3:300*1&refs=%7B%7D&step=checkout', {
      api: api(true),
    });
    expect(await screen.findByLabelText(/^Student card number/, {}, SLOW)).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Your details' })).toBeNull();
  });

  it('tops up a member card: only the memberships that can be, sent as its topups', async () => {
    const carts: Carts = { bodies: [] };
    await renderApp('/memberships?lang=en&topUp=12345678', {
      api: api(true, { status: 200, body: { orderType: 'memberships' } }, carts),
    });
    const user = userEvent.setup();
    expect(
      await screen.findByRole('heading', { name: 'Top up your card', level: 1 }, SLOW),
    ).toBeInTheDocument();
    expect(screen.getByText(/Adds to the balance of member card 12345678/)).toBeInTheDocument();
    expect(screen.getAllByRole('region').map((r) => r.getAttribute('aria-labelledby'))).toEqual([
      'membership-2',
    ]);
    const ten = screen.getByRole('button', { name: /^More: 10-film pass .*330/ });
    // Top-ups count apart from maxQuantityForMembership.
    await user.click(ten);
    await user.click(ten);
    expect(ten).toBeEnabled();
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText(/2 × 10-film pass .*top-up of card 12345678/)).toBeVisible();
    await fillDetails(user, 'en');
    await waitFor(() => expect(carts.bodies).toHaveLength(1));
    const body = carts.bodies[0] as { cart: { memberships: unknown; total: number } };
    expect(body.cart.memberships).toEqual([
      {
        MembershipId: 2,
        prices: [],
        topups: { '12345678': [{ MembershipPriceId: 201, selectedQuantity: 2 }] },
      },
    ]);
    expect(body.cart.total).toBe(66000);
    expect(await screen.findByRole('heading', { name: 'Payment' })).toBeInTheDocument();
  });

  it.each([
    ['en', 'mustSelectMemberships', {}, 'Please choose a membership'],
    ['he', 'mustSelectMemberships', {}, 'יש לבחור מנוי'],
    ['en', 'noMemberships', {}, 'No memberships are on sale right now'],
    ['he', 'noMemberships', {}, 'אין מנויים למכירה כרגע'],
    [
      'en',
      'validateReferences',
      { fields: ['reference1'] },
      'Please fill in the details this membership asks for, in the right form',
    ],
    [
      'he',
      'validateReferences',
      { fields: ['reference1'] },
      'יש למלא את הפרטים שהמנוי דורש, בצורה הנכונה',
    ],
    ['en', 'memberNotFound', {}, 'Member not found'],
    ['en', 'formValidation', { max: 1 }, 'Up to 1 of each membership in one order'],
    ['he', 'formValidation', { max: 1 }, 'עד 1 מכל מנוי בהזמנה אחת'],
    [
      'en',
      'formValidation',
      { reason: 'currencies' },
      'Memberships priced in different currencies cannot be bought in one order',
    ],
    ['en', 'formValidation', { reason: 'topUp' }, 'This membership cannot be topped up'],
  ] as const)(
    'shows the server refusing the cart (%s, %s %j)',
    async (lang, code, params, words) => {
      const refusal = { status: 422, body: { error: { code, message: 'refused', params } } };
      await renderApp(`/memberships?lang=${lang}&choice=1:100*1&step=checkout`, {
        api: api(true, refusal),
      });
      const user = userEvent.setup();
      await screen.findByLabelText(lang === 'he' ? /^שם פרטי/ : /^First name/, {}, SLOW);
      await fillDetails(user, lang);
      expect(await screen.findByText(words)).toBeInTheDocument();
      expect(
        screen.queryByRole('heading', { name: lang === 'he' ? 'תשלום' : 'Payment' }),
      ).toBeNull();
    },
  );

  it('offers the season open for enrolment to a customer with a member of its membership', async () => {
    const member = (enrolled: boolean) => ({
      memberNumber: '200001',
      name: 'Noa Barak',
      balance: 0,
      startDate: '2026-01-01',
      endDate: '2027-01-01',
      isAvailable: true,
      enrolled,
    });
    const withSeason =
      (enrolled: boolean): ApiHandler =>
      (url, init) =>
        url.pathname === '/api/enroll/2'
          ? {
              body: {
                enrollMembership: {
                  MembershipId: 2,
                  SeasonId: 1,
                  Name: 'עונה',
                  NameEn: 'Winter season',
                },
                members: [member(enrolled)],
              },
            }
          : api(true)(url, init);
    const first = await renderApp('/memberships?lang=en', { api: withSeason(false) });
    const link = await screen.findByRole('link', { name: 'Enrol in the season' }, SLOW);
    expect(link).toHaveAttribute('href', '/enroll/2?lang=en');
    expect(
      screen.getByText(/Already a member of 10-film pass\? Enrolment in Winter season is open\./),
    ).toBeInTheDocument();
    first.unmount();

    // Enrolled already, or nobody logged in: no line.
    const second = await renderApp('/memberships?lang=en', { api: withSeason(true) });
    await screen.findByRole('region', { name: '10-film pass' }, SLOW);
    await waitFor(() =>
      expect(second.fetchMock.mock.calls.some(([u]) => String(u).includes('/enroll/2'))).toBe(true),
    );
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByRole('link', { name: 'Enrol in the season' })).toBeNull();
    second.unmount();
    const anonymous = await renderApp('/memberships?lang=en', { api: api(false) });
    await screen.findByRole('region', { name: '10-film pass' }, SLOW);
    expect(anonymous.fetchMock.mock.calls.some(([u]) => String(u).includes('/enroll/'))).toBe(
      false,
    );
  });
});
