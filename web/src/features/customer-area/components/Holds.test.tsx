import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { makePresentation } from '../../../test/fixtures';
import { renderApp } from '../../../test/renderApp';
import { areaApi, makeArea } from '../testing/area';

const presentation = makePresentation({ dateTime: '2099-07-14T17:30:00Z' });

const area = makeArea();

const hold = (state: string) => ({
  reservationIdentifier: 'H1',
  reservationNumber: '4321-8765',
  state,
  holdUntil: '2099-07-14T17:00:00Z',
  givenUp: state === 'released',
  presentation,
  eventDateTime: presentation.dateTime,
  seats: [
    {
      section: 'אולם',
      sectionEn: 'Stalls',
      row: '5',
      seat: '7',
      ticketType: 'רגיל',
      ticketTypeEn: 'Regular',
      price: 4200,
    },
  ],
  total: 4700,
  amountDue: 4700,
  currency: 'ILS',
  serverTime: '2026-07-10T09:00:00Z',
});

describe('unpaid holds in the customer area', { timeout: 30_000 }, () => {
  it('lists an open hold first, with its deadline and Pay now', async () => {
    const { fetchMock } = await renderApp('/customer-area?lang=en', {
      api: areaApi(area, (url) => {
        if (url.pathname === '/api/customer-area/holds') return { body: { holds: [hold('open')] } };
        if (url.pathname === '/api/reservations/H1/pay')
          return { status: 409, body: { error: { code: 'holdReleased', message: 'x' } } };
        return undefined;
      }),
    });
    const holds = await screen.findByRole('region', { name: 'Reserved to pay later' });
    const card = within(holds).getByRole('article');
    expect(card).toHaveTextContent('Reserved – not paid');
    expect(card).toHaveTextContent('Stalls, row 5, seat 7 · Regular');
    expect(card).toHaveTextContent('Pay and collect by:');
    await userEvent.setup().click(within(card).getByRole('button', { name: /^Pay now/ }));
    expect(await within(card).findByRole('alert')).toHaveTextContent(
      'The reservation was not paid in time',
    );
    const pay = (fetchMock.mock.calls as unknown as [RequestInfo, RequestInit | undefined][]).find(
      ([u]) => String(u).includes('/api/reservations/H1/pay'),
    );
    expect(JSON.parse(String(pay?.[1]?.body))).toMatchObject({
      returnPath: '/customer-area?lang=en',
      total: 4700,
      locale: 'en',
    });
  });

  it('leads a paid hold to its tickets', async () => {
    await renderApp('/customer-area?lang=en', {
      api: areaApi(area, (url) => {
        if (url.pathname === '/api/customer-area/holds') return { body: { holds: [hold('paid')] } };
        return undefined;
      }),
    });
    const holds = await screen.findByRole('region', { name: 'Reserved to pay later' });
    await waitFor(() =>
      expect(within(holds).getByRole('link', { name: /Your tickets/ })).toHaveAttribute(
        'href',
        '/reservation/H1?lang=en',
      ),
    );
  });
  it('gives an open hold up after a confirm step, and shows it released', async () => {
    let released = false;
    const { fetchMock } = await renderApp('/customer-area?lang=en', {
      api: areaApi(area, (url) => {
        if (url.pathname === '/api/customer-area/holds')
          return { body: { holds: [hold(released ? 'released' : 'open')] } };
        if (url.pathname === '/api/reservations/H1/release') {
          released = true;
          return { body: { hold: hold('released') } };
        }
        return undefined;
      }),
    });
    const user = userEvent.setup();
    const holds = await screen.findByRole('region', { name: 'Reserved to pay later' });
    const card = within(holds).getByRole('article');
    await user.click(within(card).getByRole('button', { name: /^Give up this reservation/ }));
    const confirm = within(card).getByRole('group', { name: /Give up the reservation\?/ });
    expect(confirm).toHaveTextContent('Nothing was paid, so there is nothing to refund.');
    // Keeping it changes nothing and sends nothing.
    await user.click(within(confirm).getByRole('button', { name: 'Keep the reservation' }));
    expect(within(card).queryByRole('group')).toBeNull();
    const releases = () =>
      (fetchMock.mock.calls as unknown as [RequestInfo, RequestInit | undefined][]).filter(([u]) =>
        String(u).includes('/api/reservations/H1/release'),
      );
    expect(releases()).toHaveLength(0);
    await user.click(within(card).getByRole('button', { name: /^Give up this reservation/ }));
    await user.click(
      within(within(card).getByRole('group')).getByRole('button', {
        name: 'Yes, release the seats',
      }),
    );
    expect(releases()).toHaveLength(1);
    expect(releases()[0][1]?.method).toBe('POST');
    await waitFor(() =>
      expect(within(holds).getByRole('article')).toHaveTextContent(
        'You gave up this reservation and its seats went back on sale.',
      ),
    );
    expect(within(holds).queryByRole('button', { name: /^Pay now/ })).toBeNull();
  });
});
