import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../../../test/renderApp';
import type { AreaCustomer } from '../api/customerArea';
import { makeArea } from '../testing/area';

type Voucher = AreaCustomer['SystemVouchers'][number];

const voucher = (reference: string, status: Voucher['status'], balance: number): Voucher => ({
  reference,
  reservationIdentifier: 'G1',
  reservationNumber: '1234-5678',
  systemVoucherId: 2,
  name: 'כרטיס מתנה',
  nameEn: 'Gift card',
  status,
  price: 10000,
  value: 10000,
  balance,
  benefitTickets: null,
  redeemedTickets: 0,
  isForReplacement: false,
  startDate: '2026-07-10',
  endDate: '2027-07-10',
  dateTimeCreated: '2026-07-10T09:00:00Z',
  source: 'sale',
});

const customer = (vouchers: Voucher[]) => makeArea({ SystemVouchers: vouchers });

describe('system vouchers in the customer area', { timeout: 30_000 }, () => {
  it('shows each voucher with what is left, and refunds only an untouched one after a confirm step', async () => {
    let cancelled = false;
    const { fetchMock } = await renderApp('/customer-area?lang=en', {
      api: (url) => {
        if (url.pathname === '/api/customer-area/customerAreaData')
          return {
            body: customer([
              voucher('KV-AAAA-BBBB-CCCC-DDDD', cancelled ? 'cancelled' : 'active', 10000),
              voucher('KV-EEEE-FFFF-GGGG-HHHH', 'partiallyRedeemed', 2500),
            ]),
          };
        if (url.pathname === '/api/customer/locations') return { body: { locations: [] } };
        if (url.pathname === '/api/customer-area/holds') return { body: { holds: [] } };
        if (url.pathname === '/api/system-vouchers/KV-AAAA-BBBB-CCCC-DDDD/cancel') {
          cancelled = true;
          return {
            body: {
              systemVoucher: voucher('KV-AAAA-BBBB-CCCC-DDDD', 'cancelled', 0),
              refund: 10000,
              refundPending: false,
            },
          };
        }
        return undefined;
      },
    });
    const untouched = (
      await screen.findByText('KV-AAAA-BBBB-CCCC-DDDD', undefined, { timeout: 15_000 })
    ).closest('li') as HTMLElement;
    const used = screen.getByText('KV-EEEE-FFFF-GGGG-HHHH').closest('li') as HTMLElement;
    expect(untouched).toHaveTextContent('Active');
    expect(used).toHaveTextContent('Partly used');
    expect(used).toHaveTextContent('₪25.00 of ₪100.00');
    // A partly used voucher is replaced, never refunded.
    expect(within(used).queryByRole('button', { name: 'Cancel and refund' })).toBeNull();
    expect(
      within(used).getByRole('button', { name: 'Turn into a replacement voucher' }),
    ).toBeEnabled();

    const user = userEvent.setup();
    await user.click(within(untouched).getByRole('button', { name: 'Cancel and refund' }));
    const confirm = within(untouched).getByRole('group', { name: 'Cancel and refund' });
    expect(confirm).toHaveTextContent('₪100.00 refunded');
    await user.click(within(confirm).getByRole('button', { name: 'Yes, cancel and refund' }));
    expect(await within(untouched).findByText('Cancelled')).toBeInTheDocument();
    const call = (fetchMock.mock.calls as unknown as [RequestInfo, RequestInit | undefined][]).find(
      ([u]) => String(u).includes('/cancel'),
    );
    expect(JSON.parse(String(call?.[1]?.body))).toEqual({ reservationIdentifier: 'G1' });
  });
});
