import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import i18n from '../../../lib/i18n';
import { makePresentation } from '../../../test/fixtures';
import { renderApp } from '../../../test/renderApp';
import type { CancellationResult, Reservation } from '../api/cancel';

function seat(line: number, seatName: string, cancelledAt: string | null = null) {
  return {
    line,
    isSubTicket: false,
    presentationId: 1,
    sectionId: 1,
    x: line,
    y: 1,
    cancelledAt,
    documentKey: `k${line}`,
    edocumentUrl: `/edocument/k${line}`,
    price: 4200,
    serviceCharge: 300,
    row: '4',
    seat: seatName,
    section: 'אולם',
    sectionEn: 'Hall',
    ticketType: 'רגיל',
    ticketTypeEn: 'Regular',
  };
}

function reservationWith(cancellations: CancellationResult[], creditOffered = false): Reservation {
  const cancelled = cancellations.length > 0;
  return {
    ReservationIdentifier: 'r-1',
    reservationNumber: '1234-5678',
    calendarUrl: '/api/reservations/r-1/calendar.ics?exp=1&sig=a',
    pdfUrl: '/api/reservations/r-1/tickets.pdf?exp=1&sig=a',
    confirmationUrl: '/reservation/r-1?exp=1&sig=a',
    currency: 'ILS',
    customerEmail: 'dana@example.com',
    customerFirstName: 'דנה',
    entranceTime: '2026-07-14T17:00:00Z',
    eventDateTime: '2026-07-14T17:30:00Z',
    orderTerms: '',
    orderTermsEn: '',
    paidAt: '2026-07-01T10:00:00Z',
    presentation: makePresentation(),
    presentations: [makePresentation()],
    products: [],
    seats: [seat(1, '7', cancelled ? '2026-07-02T10:00:00Z' : null), seat(2, '8')],
    serviceCharge: 600,
    serviceChargeName: 'דמי טיפול',
    total: 9000,
    priceBreakdown: {
      tickets: 8400,
      ticketsServiceCharge: 600,
      orderServiceCharge: 0,
      products: 0,
      total: 9000,
    },
    status: 'paid',
    channel: 'web',
    cancellations,
    refundedTotal: cancellations.reduce((sum, c) => sum + c.refund, 0),
    loyaltyPointsSpent: 0,
    loyaltyPointsEarned: 0,
    memberBalanceSpent: 0,
    seatChange: { changeable: false, presentations: [] },
    cancellationTerms: {
      cancellable: true,
      until: '2026-07-14T16:30:00Z',
      feeKind: 'fixed',
      feeAmount: 500,
      feeScope: 'perTicket',
      creditOffered,
    },
  };
}

const figures = (dryRun: boolean, pending: boolean): CancellationResult => ({
  id: dryRun ? '' : 'c-1',
  lines: [1],
  whole: false,
  value: 4500,
  fee: 500,
  refund: 4000,
  refunds: [{ to: 'payment', amount: 4000, status: pending ? 'pending' : 'done' }],
  refundPending: pending,
  cancelledAt: '2026-07-02T10:00:00Z',
  dryRun,
});

beforeEach(async () => {
  await i18n.changeLanguage('he');
});

describe('the cancel reservation dialog', () => {
  it('cancels the chosen ticket after showing the fee, the refund and the warning', async () => {
    let cancels = 0;
    let done = false;
    const { fetchMock } = await renderApp('/reservation/r-1', {
      api: (u) => {
        if (u.pathname === '/api/reservations/r-1')
          return { body: { reservation: reservationWith(done ? [figures(false, true)] : []) } };
        if (u.pathname === '/api/reservations/r-1/cancel') {
          cancels += 1;
          done = cancels === 2;
          return { body: { cancellation: figures(cancels === 1, true) } };
        }
        return undefined;
      },
    });
    const user = userEvent.setup();
    const section = await screen.findByRole('region', { name: 'ביטול כרטיסים' }, { timeout: 5000 });
    await user.click(within(section).getByRole('button', { name: 'ביטול כרטיסים' }));
    const dialog = await screen.findByRole('dialog', { name: 'ביטול הזמנה' });
    const boxes = within(dialog).getAllByRole('checkbox');
    expect(boxes).toHaveLength(2);
    expect(boxes.every((b) => (b as HTMLInputElement).checked)).toBe(true);
    expect(within(dialog).getByText('כל ההזמנה תבוטל.')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('checkbox', { name: /מושב 8/ }));
    expect(within(dialog).getByText('כרטיס אחד יבוטל.')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'המשך' }));

    expect(await within(dialog).findByRole('note')).toHaveTextContent(
      /דמי הטיפול בסך .*5\.00.* אינם מוחזרים/,
    );
    expect(within(dialog).getByText('זיכוי').nextElementSibling).toHaveTextContent(/40\.00/);
    await user.click(within(dialog).getByRole('button', { name: 'אישור הביטול' }));
    expect(await within(dialog).findByRole('status')).toHaveTextContent(
      /הביטול בוצע\. זיכוי בסך .*40\.00.* ממתין לאישור/,
    );
    const calls = fetchMock.mock.calls as unknown as [RequestInfo | URL, RequestInit?][];
    const bodies = calls
      .filter(([input]) => String(input).includes('/cancel'))
      .map(([, init]) => JSON.parse(String(init?.body)) as unknown);
    expect(bodies).toEqual([
      { itemsToCancel: [1], refundToTransactionCredit: false, dryRun: true },
      { itemsToCancel: [1], refundToTransactionCredit: false, dryRun: false },
    ]);

    await user.click(within(dialog).getByRole('button', { name: 'סגירה' }));
    // The page reads the reservation again: the cancellation with its pending refund.
    await waitFor(() =>
      expect(within(section).getByRole('listitem')).toHaveTextContent(/ממתין לאישור/),
    );
    expect(within(section).getByRole('listitem')).toHaveTextContent(/שורה 4, מושב 7/);
  });

  it('says why a cancel was refused', async () => {
    await renderApp('/reservation/r-1', {
      api: (u) => {
        if (u.pathname === '/api/reservations/r-1')
          return { body: { reservation: reservationWith([]) } };
        if (u.pathname === '/api/reservations/r-1/cancel')
          return {
            status: 409,
            body: {
              error: { code: 'TICKET_CANCELLATIONS_ARE_NO_LONGER_POSSIBLE', message: 'closed' },
            },
          };
        return undefined;
      },
    });
    const user = userEvent.setup();
    await user.click(
      await screen.findByRole('button', { name: 'ביטול כרטיסים' }, { timeout: 5000 }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'ביטול הזמנה' });
    await user.click(within(dialog).getByRole('button', { name: 'המשך' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'לא ניתן עוד לבטל כרטיסים לאירוע זה',
    );
  });

  it('offers a logged-in owner the refund as voucher credit and shows the voucher after', async () => {
    let cancels = 0;
    const credited = (dryRun: boolean): CancellationResult => ({
      ...figures(dryRun, false),
      refunds: [
        {
          to: 'credit',
          amount: 4000,
          status: 'done',
          ...(dryRun ? {} : { reference: 'KV-7Q2M-XT4D-9HRA-C3WN' }),
        },
      ],
      credit: { reference: dryRun ? '' : 'KV-7Q2M-XT4D-9HRA-C3WN', amount: 4000 },
    });
    const { fetchMock } = await renderApp('/reservation/r-1', {
      api: (u) => {
        if (u.pathname === '/api/reservations/r-1')
          return {
            body: { reservation: reservationWith(cancels === 2 ? [credited(false)] : [], true) },
          };
        if (u.pathname === '/api/reservations/r-1/cancel') {
          cancels += 1;
          return { body: { cancellation: credited(cancels === 1) } };
        }
        return undefined;
      },
    });
    const user = userEvent.setup();
    await user.click(
      await screen.findByRole('button', { name: 'ביטול כרטיסים' }, { timeout: 5000 }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'ביטול הזמנה' });
    const group = within(dialog).getByRole('group', { name: 'לאן יועבר ההחזר?' });
    const toCard = within(group).getByRole('radio', { name: /החזר לכרטיס האשראי/ });
    const toCredit = within(group).getByRole('radio', { name: 'זיכוי בשובר להזמנה הבאה שלי' });
    expect(toCard).toBeChecked();
    await user.click(toCredit);
    expect(toCredit).toBeChecked();
    await user.click(within(dialog).getByRole('checkbox', { name: /מושב 8/ }));
    await user.click(within(dialog).getByRole('button', { name: 'המשך' }));
    expect((await within(dialog).findByText('כזיכוי בשובר')).nextElementSibling).toHaveTextContent(
      /40\.00/,
    );
    await user.click(within(dialog).getByRole('button', { name: 'אישור הביטול' }));
    const status = await within(dialog).findByRole('status');
    expect(status).toHaveTextContent(/ניתן כזיכוי בשובר/);
    expect(status).toHaveTextContent('KV-7Q2M-XT4D-9HRA-C3WN');
    const calls = fetchMock.mock.calls as unknown as [RequestInfo | URL, RequestInit?][];
    const bodies = calls
      .filter(([input]) => String(input).includes('/cancel'))
      .map(([, init]) => JSON.parse(String(init?.body)) as unknown);
    expect(bodies).toEqual([
      { itemsToCancel: [1], refundToTransactionCredit: true, dryRun: true },
      { itemsToCancel: [1], refundToTransactionCredit: true, dryRun: false },
    ]);
  });

  it('does not offer credit when the reservation cannot take it (a guest)', async () => {
    await renderApp('/reservation/r-1', {
      api: (u) => {
        if (u.pathname === '/api/reservations/r-1')
          return { body: { reservation: reservationWith([]) } };
        return undefined;
      },
    });
    const user = userEvent.setup();
    await user.click(
      await screen.findByRole('button', { name: 'ביטול כרטיסים' }, { timeout: 5000 }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'ביטול הזמנה' });
    expect(within(dialog).queryByRole('radio')).not.toBeInTheDocument();
  });
});
