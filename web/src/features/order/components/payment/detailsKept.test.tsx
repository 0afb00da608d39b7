// Item 4 (details half): a reload or a language switch on the details step keeps what the buyer
// typed (sessionStorage, per presentation), but never the ID number or the date of birth.
import { cleanup, render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import i18n from '../../../../lib/i18n';
import { resetUuid } from '../../../../lib/api/client';
import { mockApi } from '../../../../test/renderApp';
import { makeConfig, makePresentation } from '../../../../test/fixtures';
import type { PricedCart } from '../../api/payment';
import { loadOrder, saveOrder } from '../../model/orderSession';
import { OrderHarness } from '../../testing/OrderHarness';
import { orderAtPayment } from '../../testing/orderAt';
import { pricedCartOf } from '../../testing/pricedCart';
import { PaymentStep } from './PaymentStep';

const cart: PricedCart = pricedCartOf(4200);

// A site that also asks for the ID number and the date of birth.
const config = (() => {
  const c = makeConfig();
  c.customerInfo = {
    ...c.customerInfo,
    ssn: { isRequired: true, isIncluded: true },
    dateOfBirth: { isRequired: false, isIncluded: true },
  };
  return c;
})();

/** The page at the details step, as a fresh load (a reload) would show it. */
function load(presentationId = 101) {
  render(
    <QueryClientProvider
      client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}
    >
      <OrderHarness
        presentation={makePresentation({ id: presentationId })}
        initial={orderAtPayment({ ...cart, presentationId })}
      >
        <PaymentStep config={config} />
      </OrderHarness>
    </QueryClientProvider>,
  );
}

const stored = () =>
  Object.keys(sessionStorage)
    .map((key) => sessionStorage.getItem(key) ?? '')
    .join('\n');

beforeEach(async () => {
  mockApi(config);
  await i18n.changeLanguage('he');
  resetUuid();
});

afterEach(() => sessionStorage.clear());

describe('the details through a reload', () => {
  it('are kept, without the ID number or the date of birth', async () => {
    const user = userEvent.setup();
    load();
    await user.type(screen.getByLabelText(/^שם פרטי/), 'Dana');
    await user.type(screen.getByLabelText(/^שם משפחה/), 'Levi');
    await user.type(screen.getByLabelText(/^אימייל/), 'dana@example.com');
    await user.type(screen.getByLabelText(/^טלפון נייד/), '052-4318876');
    await user.type(screen.getByLabelText(/^תעודת זהות/), '034528711');
    await user.type(screen.getByLabelText(/^תאריך לידה/), '1986-04-17');

    // Nothing personal in this tab's storage, whatever was typed.
    expect(stored()).toContain('dana@example.com');
    expect(stored()).not.toContain('034528711');
    expect(stored()).not.toContain('1986-04-17');

    cleanup();
    load();
    expect(screen.getByLabelText(/^שם פרטי/)).toHaveValue('Dana');
    expect(screen.getByLabelText(/^שם משפחה/)).toHaveValue('Levi');
    expect(screen.getByLabelText(/^אימייל/)).toHaveValue('dana@example.com');
    expect(screen.getByLabelText(/^טלפון נייד/)).toHaveValue('052-4318876');
    expect(screen.getByLabelText(/^תעודת זהות/)).toHaveValue('');
    expect(screen.getByLabelText(/^תאריך לידה/)).toHaveValue('');
  });

  it('are kept through a switch to English, and per screening', async () => {
    const user = userEvent.setup();
    load();
    await user.type(screen.getByLabelText(/^שם פרטי/), 'Dana');
    cleanup();
    await i18n.changeLanguage('en');
    load();
    expect(screen.getByLabelText(/^First name/)).toHaveValue('Dana');
    cleanup();
    load(202);
    expect(screen.getByLabelText(/^First name/)).toHaveValue('');
  });

  it('accepted with an ID number are not kept whole: the form asks for it again', () => {
    saveOrder(101, {
      step: 'payment',
      choice: null,
      products: {},
      customerInfo: { firstName: 'Dana', ssn: '034528711' } as never,
    });
    expect(stored()).not.toContain('034528711');
    expect(loadOrder(101)?.customerInfo).toBeNull();
  });
});
