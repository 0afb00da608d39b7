import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '../../../../lib/i18n';
import { resetUuid } from '../../../../lib/api/client';
import type { SavedCard } from '../../../../lib/api/customer';
import { makeConfig } from '../../../../test/fixtures';
import { fillDetails, paymentForm, renderPaymentStep } from '../../testing/paymentStep';
import { onePricedSeat } from '../../testing/pricedCart';
import type { PricedCart } from '../../api/payment';

// The saved-card path of the payment step: "Saved card" asks for the SMS login, then lists the
// customer's cards, and the payment form is asked for with method=savedCard.

const cart: PricedCart = onePricedSeat;

// A proven number with no customer account behind it: the server knows the number, nothing more.
const provenNumber = {
  customerInfo: null,
  mobileNumber: '0524318876',
  loggedInAt: '2026-07-14T16:50:00Z',
  expiresAt: '2026-07-14T18:50:00Z',
  serverTime: '2026-07-14T16:50:00Z',
};
const customerLogin = {
  ...provenNumber,
  customerInfo: { CustomerId: 7, FirstName: 'דנה', LastName: 'לוי', Members: [] },
};

const visa: SavedCard = {
  brand: 'visa',
  createdAt: '2026-01-01T10:00:00Z',
  expiryMonth: 3,
  expiryYear: 2028,
  isDeleted: false,
  isExpired: false,
  last4: '4242',
  token: 't-visa',
};
const oldCard: SavedCard = {
  ...visa,
  brand: 'mastercard',
  expiryYear: 2024,
  isExpired: true,
  last4: '5100',
  token: 't-old',
};

type Call = { method: string; url: URL; body: unknown };

const mastercard: SavedCard = {
  ...visa,
  brand: 'mastercard',
  expiryMonth: 11,
  expiryYear: 2029,
  last4: '4444',
  token: 't-mc',
};

type FormAnswer = { paymentFormURL: string; paid: boolean };

function server(state: {
  loggedIn: boolean;
  cards: SavedCard[];
  customer?: boolean;
  form?: FormAnswer;
}) {
  const login = state.customer === false ? provenNumber : customerLogin;
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), 'http://localhost');
      const method = init?.method ?? 'GET';
      calls.push({ method, url, body: init?.body ? JSON.parse(String(init.body)) : undefined });
      const reply = (body: unknown, status = 200) =>
        new Response(JSON.stringify(body), {
          status,
          headers: { 'content-type': 'application/json' },
        });
      switch (url.pathname) {
        case '/api/config':
          return reply(makeConfig());
        case '/api/cart':
          return reply({
            cart,
            expiresAt: '2026-07-14T17:00:00Z',
            serverTime: '2026-07-14T16:50:00Z',
            step: 'customerInfo',
          });
        case '/api/customer/me':
          return state.loggedIn
            ? reply(login)
            : reply({ error: { code: 'loginError', message: 'no login' } }, 401);
        case '/api/customer/mobile-login':
          return reply({ success: true });
        case '/api/customer/mobile-login-validation-area':
          state.loggedIn = true;
          return reply(login);
        case '/api/customer/saved-cards':
          // As the server: a proven number without a customer is not a customer's login.
          return state.loggedIn && state.customer !== false
            ? reply({ savedCards: state.cards })
            : reply({ error: { code: 'loginError', message: 'no login' } }, 401);
        case '/api/payment/form/he':
        case '/api/payment/form/en':
          return reply({ ...paymentForm('p-saved', { amount: 4700, paid: false }), ...state.form });
        case '/api/payment/commit':
          return reply({ reservationIdentifier: 'R-1', success: true });
        default:
          return reply({ error: { code: 'notFound', message: url.pathname } }, 404);
      }
    }),
  );
  return calls;
}

function renderStep(config = makeConfig()) {
  renderPaymentStep({ cart, config });
}

beforeEach(async () => {
  await i18n.changeLanguage('he');
  resetUuid();
});

describe('payment step with a saved card', () => {
  it('asks a logged-out buyer to log in by SMS, then lists the cards and pays with one', async () => {
    const user = userEvent.setup();
    const calls = server({ loggedIn: false, cards: [visa, oldCard] });
    renderStep();
    await fillDetails(user);

    const pay = await screen.findByRole('button', { name: /^לתשלום/ });
    await user.click(screen.getByRole('button', { name: 'כרטיס שמור' }));
    expect(screen.getByRole('button', { name: 'כרטיס שמור' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    // No cards without a login, and no paying yet.
    const loginBox = await screen.findByRole('region', { name: 'כניסה עם מספר נייד' });
    expect(pay).toBeDisabled();
    expect(calls.some((c) => c.url.pathname === '/api/customer/saved-cards')).toBe(false);

    // The number typed in the details is already there.
    expect(within(loginBox).getByLabelText('מספר טלפון נייד')).toHaveValue('0524318876');
    await user.click(within(loginBox).getByRole('button', { name: 'שליחת קוד' }));
    await user.type(await within(loginBox).findByLabelText('קוד מה-SMS'), '654321');
    await user.click(within(loginBox).getByRole('button', { name: 'כניסה' }));

    // Logged in: the login form goes, the cards come (the expired one marked, not offered).
    expect(await screen.findByText('הכרטיסים השמורים שלכם')).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'כניסה עם מספר נייד' })).not.toBeInTheDocument();
    expect(screen.getByText('VISA •••• 4242 · 03/28')).toBeInTheDocument();
    expect(screen.getByText('MASTERCARD •••• 5100 · 03/24').closest('li')).toHaveTextContent(
      '(פג תוקף)',
    );
    await waitFor(() => expect(pay).toBeEnabled());

    await user.click(pay);
    expect(await screen.findByTitle('טופס תשלום מאובטח')).toHaveAttribute(
      'src',
      '/pay/p-saved?locale=he',
    );
    const form = calls.find((c) => c.url.pathname === '/api/payment/form/he');
    expect(form?.url.searchParams.get('method')).toBe('savedCard');
    expect(form?.url.searchParams.get('total')).toBe('4700');
    // The only usable card was preselected, and its token is what the form is asked with.
    expect(form?.url.searchParams.get('savedCardToken')).toBe('t-visa');
  });

  it('offers the usable cards as radio choices, the first chosen, and sends the chosen one', async () => {
    const user = userEvent.setup();
    const calls = server({ loggedIn: true, cards: [visa, mastercard, oldCard] });
    renderStep();
    await fillDetails(user);
    await user.click(await screen.findByRole('button', { name: 'כרטיס שמור' }));
    const group = await screen.findByRole('group', { name: 'הכרטיסים השמורים שלכם' });
    const radios = within(group).getAllByRole('radio');
    expect(radios).toHaveLength(3);
    expect(within(group).getByRole('radio', { name: 'VISA •••• 4242 · 03/28' })).toBeChecked();
    // The expired card is shown, marked, and cannot be chosen.
    expect(within(group).getByRole('radio', { name: /5100/ })).toBeDisabled();
    await user.click(within(group).getByRole('radio', { name: 'MASTERCARD •••• 4444 · 11/29' }));
    expect(within(group).getByRole('radio', { name: /4444/ })).toBeChecked();

    await user.click(screen.getByRole('button', { name: /^לתשלום/ }));
    await screen.findByTitle('טופס תשלום מאובטח');
    const form = calls.find((c) => c.url.pathname === '/api/payment/form/he');
    expect(form?.url.searchParams.get('method')).toBe('savedCard');
    expect(form?.url.searchParams.get('savedCardToken')).toBe('t-mc');
  });

  it('sends no card token when the buyer goes back to a new card', async () => {
    const user = userEvent.setup();
    const calls = server({ loggedIn: true, cards: [visa] });
    renderStep();
    await fillDetails(user);
    await user.click(await screen.findByRole('button', { name: 'כרטיס שמור' }));
    await screen.findByRole('radio', { name: 'VISA •••• 4242 · 03/28' });
    await user.click(screen.getByRole('button', { name: 'כרטיס אשראי' }));
    await user.click(screen.getByRole('button', { name: /^לתשלום/ }));
    await screen.findByTitle('טופס תשלום מאובטח');
    const form = calls.find((c) => c.url.pathname === '/api/payment/form/he');
    expect(form?.url.searchParams.get('method')).toBe('card');
    expect(form?.url.searchParams.has('savedCardToken')).toBe(false);
  });

  it('lists the cards in English too', async () => {
    await i18n.changeLanguage('en');
    const user = userEvent.setup();
    server({ loggedIn: true, cards: [visa, oldCard] });
    renderStep();
    await user.type(screen.getByLabelText(/^First name/), 'Dana');
    await user.type(screen.getByLabelText(/^Last name/), 'Levi');
    await user.type(screen.getByLabelText(/^Email/), 'dana@example.com');
    await user.type(screen.getByLabelText(/^Confirm email/), 'dana@example.com');
    await user.type(screen.getByLabelText(/^Mobile/), '052-4318876');
    await user.click(screen.getByRole('checkbox', { name: /I have read/ }));
    await user.click(screen.getByRole('button', { name: /^Continue/ }));
    await user.click(await screen.findByRole('button', { name: 'Saved card' }));
    const group = await screen.findByRole('group', { name: 'Your saved cards' });
    expect(within(group).getByRole('radio', { name: 'VISA •••• 4242 · 03/28' })).toBeChecked();
    expect(within(group).getByText('MASTERCARD •••• 5100 · 03/24').closest('li')).toHaveTextContent(
      '(expired)',
    );
  });

  it('goes on to the commit when the card was charged by its token, with no page', async () => {
    const user = userEvent.setup();
    const calls = server({
      loggedIn: true,
      cards: [visa],
      form: { paymentFormURL: '/order/1?paymentId=p-saved', paid: true },
    });
    renderStep();
    await fillDetails(user);
    await user.click(await screen.findByRole('button', { name: 'כרטיס שמור' }));
    await screen.findByRole('radio', { name: 'VISA •••• 4242 · 03/28' });
    await user.click(screen.getByRole('button', { name: /^לתשלום/ }));
    await waitFor(() =>
      expect(calls.some((c) => c.url.pathname === '/api/payment/commit')).toBe(true),
    );
    expect(screen.queryByTitle('טופס תשלום מאובטח')).toBeNull();
  });

  it('shows no page and follows the payment when the charge by token is still open', async () => {
    const user = userEvent.setup();
    const calls = server({
      loggedIn: true,
      cards: [visa],
      form: { paymentFormURL: '/order/101?paymentId=p-saved', paid: false },
    });
    renderStep();
    await fillDetails(user);
    await user.click(await screen.findByRole('button', { name: 'כרטיס שמור' }));
    await screen.findByRole('radio', { name: 'VISA •••• 4242 · 03/28' });
    await user.click(screen.getByRole('button', { name: /^לתשלום/ }));
    // The answer is this page again: the dialog asks for the payment's status, never frames it.
    expect(await screen.findByText('בודקים את תוצאת התשלום…')).toBeInTheDocument();
    expect(screen.queryByTitle('טופס תשלום מאובטח')).toBeNull();
    expect(calls.some((c) => c.url.pathname === '/api/payment/commit')).toBe(false);
  });

  it('says there is no usable card and keeps the pay button off', async () => {
    const user = userEvent.setup();
    server({ loggedIn: true, cards: [oldCard] });
    renderStep();
    await fillDetails(user);
    const pay = await screen.findByRole('button', { name: /^לתשלום/ });
    await user.click(screen.getByRole('button', { name: 'כרטיס שמור' }));
    expect(
      await screen.findByText('אין כרטיסים שמורים למספר הזה. בחרו אמצעי תשלום אחר.'),
    ).toBeInTheDocument();
    expect(pay).toBeDisabled();
    // Back to a plain card: paying is possible again.
    await user.click(screen.getByRole('button', { name: 'כרטיס אשראי' }));
    expect(pay).toBeEnabled();
  });

  it('lets a proven number with no customer account pay with a new card', async () => {
    const user = userEvent.setup();
    const calls = server({ loggedIn: false, cards: [], customer: false });
    renderStep();
    await fillDetails(user);
    const pay = await screen.findByRole('button', { name: /^לתשלום/ });
    await user.click(screen.getByRole('button', { name: 'כרטיס שמור' }));
    // Pay is off, and the buyer is told why.
    expect(pay).toBeDisabled();
    expect(pay).toHaveAccessibleDescription('כדי לשלם בכרטיס שמור יש להיכנס עם מספר הנייד.');

    const loginBox = await screen.findByRole('region', { name: 'כניסה עם מספר נייד' });
    await user.click(within(loginBox).getByRole('button', { name: 'שליחת קוד' }));
    await user.type(await within(loginBox).findByLabelText('קוד מה-SMS'), '654321');
    await user.click(within(loginBox).getByRole('button', { name: 'כניסה' }));

    // No account, so no cards: the step goes to a new card and says so; Pay is on.
    expect(await screen.findByText(/אין לו חשבון לקוח/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'כרטיס אשראי' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await waitFor(() => expect(pay).toBeEnabled());
    expect(calls.some((c) => c.url.pathname === '/api/customer/saved-cards')).toBe(false);
    // No saving offered to a number that is nobody's account.
    expect(screen.queryByRole('checkbox', { name: 'לשמור את הכרטיס לפעם הבאה' })).toBeNull();

    // Back to "saved card": Pay is off again, with the reason and a way out.
    await user.click(screen.getByRole('button', { name: 'כרטיס שמור' }));
    expect(pay).toBeDisabled();
    expect(pay).toHaveAccessibleDescription(/למספר הזה אין חשבון לקוח/);
    await user.click(screen.getByRole('button', { name: 'תשלום בכרטיס חדש' }));
    expect(pay).toBeEnabled();

    await user.click(pay);
    await screen.findByTitle('טופס תשלום מאובטח');
    const form = calls.find((c) => c.url.pathname === '/api/payment/form/he');
    expect(form?.url.searchParams.get('method')).toBe('card');
    expect(form?.url.searchParams.has('saveCard')).toBe(false);
  });
});

describe('saving a new card', () => {
  it('offers a logged-in customer to save the card, unchecked, and sends saveCard=true', async () => {
    const user = userEvent.setup();
    const calls = server({ loggedIn: true, cards: [] });
    renderStep(makeConfig({ allowSaveMemberCard: true }));
    await fillDetails(user);
    const save = await screen.findByRole('checkbox', { name: 'לשמור את הכרטיס לפעם הבאה' });
    expect(save).not.toBeChecked();
    // Only for a new card.
    await user.click(screen.getByRole('button', { name: 'כרטיס שמור' }));
    expect(screen.queryByRole('checkbox', { name: 'לשמור את הכרטיס לפעם הבאה' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'כרטיס אשראי' }));

    await user.click(screen.getByRole('checkbox', { name: 'לשמור את הכרטיס לפעם הבאה' }));
    await user.click(screen.getByRole('button', { name: /^לתשלום/ }));
    await screen.findByTitle('טופס תשלום מאובטח');
    const form = calls.find((c) => c.url.pathname === '/api/payment/form/he');
    expect(form?.url.searchParams.get('method')).toBe('card');
    expect(form?.url.searchParams.get('saveCard')).toBe('true');
  });

  it('is not offered when the site does not allow it', async () => {
    const user = userEvent.setup();
    server({ loggedIn: true, cards: [] });
    renderStep(makeConfig({ allowSaveMemberCard: false }));
    await fillDetails(user);
    await screen.findByRole('button', { name: /^לתשלום/ });
    expect(screen.queryByRole('checkbox', { name: 'לשמור את הכרטיס לפעם הבאה' })).toBeNull();
  });

  it('is not offered to a buyer who is not logged in', async () => {
    const user = userEvent.setup();
    server({ loggedIn: false, cards: [] });
    renderStep(makeConfig({ allowSaveMemberCard: true }));
    await fillDetails(user);
    await screen.findByRole('button', { name: /^לתשלום/ });
    expect(screen.queryByRole('checkbox', { name: 'לשמור את הכרטיס לפעם הבאה' })).toBeNull();
  });
});
