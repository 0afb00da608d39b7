import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Reservation } from '../../lib/api/reservations';
import { makeCompactStatus, makePresentation, makeSeat, makeSeatplan } from '../../test/fixtures';
import { renderApp, type ApiHandler } from '../../test/renderApp';

const presentation = makePresentation({ id: 101, venueId: 11, seatplanId: 7 });

const seats = [0, 1, 2, 3].flatMap((x) => [makeSeat(x, 0), makeSeat(x, 1)]);
// The buyer's two tickets: row 1, seats 3 and 4 (sold).
const mine = (s: { x: number; y: number }) => s.y === 0 && s.x >= 2;
function reservationWith(changeable: boolean): Reservation {
  const ticket = (line: number, x: number) => ({
    line,
    isSubTicket: false,
    presentationId: 101,
    sectionId: 11,
    x,
    y: 0,
    documentKey: `k${line}`,
    edocumentUrl: `/edocument/k${line}`,
    price: 4200,
    row: '1',
    seat: String(x + 1),
    section: 'אולם',
    sectionEn: 'Stalls',
    serviceCharge: 500,
    ticketType: 'רגיל',
    ticketTypeEn: 'Regular',
  });
  return {
    ReservationIdentifier: 'r-1',
    reservationNumber: '100234',
    calendarUrl: '/api/reservations/r-1/calendar.ics',
    pdfUrl: '/api/reservations/r-1/tickets.pdf',
    confirmationUrl: '/reservation/r-1',
    currency: 'ILS',
    customerEmail: 'dana@example.com',
    customerFirstName: 'דנה',
    entranceTime: presentation.dateTime,
    eventDateTime: presentation.dateTime,
    orderTerms: '',
    orderTermsEn: '',
    paidAt: '2026-07-01T10:00:00Z',
    presentation,
    presentations: [presentation],
    products: [],
    lastTransactionId: 'pay-1',
    seats: [ticket(1, 2), ticket(2, 3)],
    serviceCharge: 1000,
    serviceChargeName: 'דמי טיפול',
    total: 9400,
    priceBreakdown: {
      tickets: 9400,
      ticketsServiceCharge: 1000,
      orderServiceCharge: 0,
      products: 0,
      total: 9400,
    },
    status: 'paid',
    channel: 'web',
    cancellations: [],
    refundedTotal: 0,
    loyaltyPointsSpent: 0,
    loyaltyPointsEarned: 0,
    memberBalanceSpent: 0,
    seatChange: {
      changeable,
      presentations: changeable ? [{ presentationId: 101, until: presentation.dateTime }] : [],
    },
    cancellationTerms: {
      cancellable: false,
      until: presentation.dateTime,
      feeKind: 'none',
      feeAmount: 0,
      feeScope: 'perTicket',
      creditOffered: false,
    },
  };
}

/** The reservation with a third ticket, of a second screening (seat 1 of row 1 there). */
function twoScreenings(): Reservation {
  const r = reservationWith(true);
  const second = makePresentation({ id: 102, venueId: 11, seatplanId: 7, featureNameEn: 'Second' });
  return {
    ...r,
    presentations: [presentation, second],
    seats: [
      ...r.seats,
      { ...r.seats[0], line: 3, presentationId: 102, x: 0, seat: '1', documentKey: 'k3' },
    ],
    seatChange: {
      changeable: true,
      presentations: [
        { presentationId: 101, until: presentation.dateTime },
        { presentationId: 102, until: second.dateTime },
      ],
    },
  };
}

function api(
  changeable: boolean,
  modify: { status: number; body: unknown },
  sent: unknown[],
  reservation: Reservation = reservationWith(changeable),
) {
  const handler: ApiHandler = (url) => {
    switch (url.pathname) {
      case '/api/reservations/r-1':
        return { body: { reservation } };
      case '/api/seats/seatplanV2':
        return { body: { seatplan: makeSeatplan(seats, { name: 'אולם 3' }) } };
      case '/api/seats/seats-statusV2/compact':
        return { body: makeCompactStatus(101, seats.map((s) => (mine(s) ? 's' : 'a')).join('')) };
      case '/api/reservations/r-1/modify':
        sent.push(url.pathname);
        return modify;
      default:
        return undefined;
    }
  };
  return handler;
}

describe('the seat-change screen', { timeout: 30_000 }, () => {
  it('moves a ticket picked on the map, and says in words why a taken seat was refused', async () => {
    const sent: unknown[] = [];
    const taken = {
      status: 409,
      body: {
        error: {
          code: 'lock_seat_error',
          message: 'x',
          params: { presentationId: 101, sectionId: 11, x: 3, y: 1 },
        },
      },
    };
    const { fetchMock } = await renderApp('/reservation/r-1/seats', {
      api: api(true, taken, sent),
    });
    expect(
      await screen.findByRole('heading', { name: 'החלפת מקומות', level: 1 }, { timeout: 5000 }),
    ).toBeInTheDocument();
    const user = userEvent.setup();
    await user.click(
      await screen.findByRole('button', { name: 'שורה 1, מושב 3, המקום שלך, כרטיס 1' }),
    );
    await user.click(screen.getByRole('button', { name: 'שורה 2, מושב 4, פנוי' }));
    const change = screen.getByRole('region', { name: 'השינוי שלך' });
    expect(change).toHaveTextContent('כרטיס 1: שורה 1, מושב 3 ← שורה 2, מושב 4');
    await user.click(within(change).getByRole('button', { name: 'אישור ההחלפה' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'מישהו אחר תפס הרגע את המקום הזה. המקומות שלך לא השתנו',
    );
    // The refused seat is no longer the buyer's choice.
    expect(change).toHaveTextContent('עוד לא הוחלף אף מקום.');
    const call = (fetchMock.mock.calls as unknown as [RequestInfo, RequestInit | undefined][]).find(
      ([input]) => String(input).includes('/modify'),
    );
    expect(JSON.parse(String(call?.[1]?.body))).toEqual({
      resId: 'r-1',
      lastTransactionId: 'pay-1',
      tickets: [
        { presentationId: 101, sectionId: 11, x: 2, y: 0, newSeat: { sectionId: 11, x: 3, y: 1 } },
      ],
    });
  });

  it('lands back on the reservation, which says the seats changed', async () => {
    const done = { status: 200, body: { reservationIdentifier: 'r-1', tickets: [] } };
    const { getRouter } = await renderApp('/reservation/r-1/seats', { api: api(true, done, []) });
    const user = userEvent.setup();
    await user.click(
      await screen.findByRole(
        'button',
        { name: 'שורה 1, מושב 4, המקום שלך, כרטיס 2' },
        { timeout: 5000 },
      ),
    );
    await user.click(screen.getByRole('button', { name: 'שורה 2, מושב 1, פנוי' }));
    await user.click(screen.getByRole('button', { name: 'אישור ההחלפה' }));
    expect(
      await screen.findByText(
        /המקומות הוחלפו\. לכרטיסים שלמטה יש קודי QR חדשים/,
        {},
        { timeout: 5000 },
      ),
    ).toBeInTheDocument();
    expect(getRouter()?.state.location.pathname).toBe('/reservation/r-1');
  });

  it('changes the seats of one screening of a two-screening order at a time', async () => {
    await renderApp('/reservation/r-1/seats', {
      api: api(true, { status: 500, body: {} }, [], twoScreenings()),
    });
    const screenings = await screen.findByRole('group', { name: 'הקרנה' }, { timeout: 5000 });
    const radios = within(screenings).getAllByRole('radio');
    expect(radios).toHaveLength(2);
    expect(radios[0]).toBeChecked();
    const tickets = await screen.findByRole('region', { name: 'הכרטיסים שלך' });
    expect(within(tickets).getAllByRole('listitem')).toHaveLength(2);
    await userEvent.setup().click(radios[1]);
    // The second screening's one ticket, already picked: a tap on a free seat moves it.
    await screen.findByText('יש להקיש על מקום פנוי לכרטיס. המחיר לא משתנה.');
    const now = screen.getByRole('region', { name: 'הכרטיסים שלך' });
    expect(within(now).getAllByRole('listitem')).toHaveLength(1);
    expect(now).toHaveTextContent('כרטיס 1 שורה 1, מושב 1');
  });

  it('says plainly when the seats can no longer change', async () => {
    await renderApp('/reservation/r-1/seats', {
      api: api(false, { status: 500, body: {} }, []),
    });
    expect(
      await screen.findByRole('heading', { name: 'כבר אי אפשר להחליף מקומות' }, { timeout: 5000 }),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'חזרה להזמנה' })).toHaveAttribute(
      'href',
      '/reservation/r-1',
    );
  });
});
