import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '../../../../lib/i18n';
import { makePresentation } from '../../../../test/fixtures';
import { renderApp } from '../../../../test/renderApp';
import type { Reservation } from '../../api/payment';

const QR =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 4 4"><rect id="qr-marker" width="2" height="2"/></svg>';

const reservation: Reservation = {
  ReservationIdentifier: 'r-1',
  reservationNumber: '100234',
  calendarUrl: '/api/reservations/r-1/calendar.ics?exp=1900000000&sig=abc123',
  pdfUrl: '/api/reservations/r-1/tickets.pdf?exp=1900000000&sig=abc123',
  confirmationUrl: '/reservation/r-1?exp=1900000000&sig=abc123',
  currency: 'ILS',
  customerEmail: 'dana@example.com',
  customerFirstName: 'דנה',
  entranceTime: '2026-07-14T17:00:00Z',
  eventDateTime: '2026-07-14T17:30:00Z',
  orderTerms: 'אין החזרים לאחר תחילת ההקרנה.',
  orderTermsEn: 'No refunds after the screening starts.',
  paidAt: '2026-07-01T10:00:00Z',
  presentation: makePresentation(),
  presentations: [makePresentation()],
  products: [{ name: 'פופקורן', nameEn: 'Popcorn', quantity: 2, amount: 3000 }],
  seats: [
    {
      line: 1,
      isSubTicket: false,
      presentationId: 1,
      sectionId: 1,
      x: 7,
      y: 4,
      documentKey: 'k1',
      edocumentUrl: '/edocument/k1',
      qrSvg: QR,
      price: 4200,
      row: '4',
      seat: '7',
      section: 'יציע',
      sectionEn: 'Balcony',
      serviceCharge: 500,
      ticketType: 'רגיל',
      ticketTypeEn: 'Regular',
    },
    {
      line: 2,
      isSubTicket: false,
      presentationId: 1,
      sectionId: 1,
      x: 8,
      y: 4,
      documentKey: 'k2',
      edocumentUrl: '/edocument/k2',
      qrSvg: QR,
      price: 3600,
      row: '4',
      seat: '8',
      section: 'יציע',
      sectionEn: 'Balcony',
      serviceCharge: 500,
      ticketType: 'גמלאי',
      ticketTypeEn: 'Senior',
    },
  ],
  serviceCharge: 1000,
  serviceChargeName: 'דמי טיפול',
  total: 11800,
  priceBreakdown: {
    tickets: 8800,
    ticketsServiceCharge: 1000,
    orderServiceCharge: 0,
    products: 3000,
    total: 11800,
  },
  status: 'paid',
  channel: 'web',
  cancellations: [],
  refundedTotal: 0,
  loyaltyPointsSpent: 0,
  loyaltyPointsEarned: 0,
  memberBalanceSpent: 0,
  seatChange: { changeable: false, presentations: [] },
  cancellationTerms: {
    cancellable: false,
    until: '2026-07-14T16:30:00Z',
    feeKind: 'fixed',
    feeAmount: 500,
    feeScope: 'perTicket',
    creditOffered: false,
  },
};

/** The reservation page at `url`; the read-back answers the session, or the link exp=1900000000&sig=abc123. */
async function openPage(url = '/reservation/r-1', { session = true } = {}) {
  const calls: URL[] = [];
  const rendered = await renderApp(url, {
    api: (u) => {
      calls.push(u);
      if (u.pathname === '/api/reservations/r-1') {
        const signed =
          u.searchParams.get('exp') === '1900000000' && u.searchParams.get('sig') === 'abc123';
        return session || signed ? { body: { reservation } } : undefined;
      }
      if (u.pathname === '/api/reservations/r-1/sendTickets') return { body: { success: true } };
      return undefined;
    },
  });
  return { ...rendered, calls };
}

beforeEach(async () => {
  await i18n.changeLanguage('he');
});

describe('the reservation page', () => {
  it('lists the tickets at full prices, products and the breakdown, in Israel time', async () => {
    await openPage();
    // The first test loads the page's code (the reservation and its cancel dialog) cold.
    expect(
      await screen.findByRole('heading', { name: 'ההזמנה הושלמה' }, { timeout: 15000 }),
    ).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'ההזמנה שלך', level: 1 })).toBeInTheDocument();
    const tickets = screen.getByRole('region', { name: 'הכרטיסים' });
    const line = (label: string) => within(tickets).getByText(label).closest('li, div');
    // Each ticket at its full price (₪42 + ₪5), the service charge in it said beside.
    expect(line('יציע, שורה 4, מושב 7 · רגיל')).toHaveTextContent(/47\.00.*כולל דמי טיפול .*5\.00/);
    expect(line('יציע, שורה 4, מושב 8 · גמלאי')).toHaveTextContent(
      /41\.00.*כולל דמי טיפול .*5\.00/,
    );
    expect(line('פופקורן × 2')).toHaveTextContent(/30\.00/);
    expect(line('כרטיסים')).toHaveTextContent(/88\.00.*מתוכם דמי טיפול .*10\.00/);
    expect(line('תוספות')).toHaveTextContent(/30\.00/);
    expect(line('סה״כ')).toHaveTextContent(/118\.00/);
    expect(within(tickets).queryByText(/להזמנה/)).toBeNull();
    // 17:30 UTC is 20:30 in Jerusalem in July.
    expect(
      screen.getByText(
        (_, el) => el?.tagName === 'TIME' && el.textContent === 'יום שלישי, 14/07/2026, 20:30',
      ),
    ).toBeInTheDocument();
    expect(screen.getByText('20:00')).toBeInTheDocument();
    expect(screen.getByText('אין החזרים לאחר תחילת ההקרנה.')).toBeInTheDocument();
    // The order number is one unbreakable, left-to-right piece of the thanks.
    const number = screen.getByText('100234');
    expect(number.tagName).toBe('BDI');
    expect(number).toHaveClass('confirmation__number');
    expect(number.closest('p')).toHaveTextContent(/^תודה .*100234/);
  }, 20_000);

  it('says the club points the order was paid with and earned, and none when there are none', async () => {
    await openPage();
    await screen.findByRole('heading', { name: 'ההזמנה הושלמה' }, { timeout: 15000 });
    expect(screen.queryByText(/נקודות מועדון/)).toBeNull();
    cleanup();
    Object.assign(reservation, { loyaltyPointsSpent: 640, loyaltyPointsEarned: 12 });
    try {
      await openPage();
      expect(
        await screen.findByText('שולם ב־640 נקודות מועדון', {}, { timeout: 15000 }),
      ).toBeInTheDocument();
      expect(screen.getByText('צברת 12 נקודות מועדון בהזמנה הזו')).toBeInTheDocument();
    } finally {
      Object.assign(reservation, { loyaltyPointsSpent: 0, loyaltyPointsEarned: 0 });
    }
  });

  it('says what the film pass paid, and nothing when it paid nothing', async () => {
    await openPage();
    await screen.findByRole('heading', { name: 'ההזמנה הושלמה' }, { timeout: 15000 });
    expect(screen.queryByText(/מיתרת הכרטיסייה/)).toBeNull();
    cleanup();
    Object.assign(reservation, { memberBalanceSpent: 7000 });
    try {
      await openPage();
      expect(
        await screen.findByText(/^שולם מיתרת הכרטיסייה: /, {}, { timeout: 15000 }),
      ).toHaveTextContent('70.00');
    } finally {
      Object.assign(reservation, { memberBalanceSpent: 0 });
    }
  });

  it("shows each ticket's QR code as an image and links its e-document", async () => {
    const { container } = await openPage();
    const digital = await screen.findByRole('region', { name: 'כרטיסים דיגיטליים' });
    const passes = within(digital).getAllByRole('listitem');
    expect(passes).toHaveLength(2);
    const qr = within(passes[0]).getByRole('img', { name: 'קוד QR לכניסה, יציע, שורה 4, מושב 7' });
    expect(qr.getAttribute('src')).toBe(
      `data:image/svg+xml;charset=utf-8,${encodeURIComponent(QR)}`,
    );
    expect(within(passes[0]).getByText('כרטיס 1 מתוך 2')).toBeInTheDocument();
    expect(
      within(passes[1]).getByRole('link', { name: /פתיחת הכרטיס הדיגיטלי.*מושב 8/ }),
    ).toHaveAttribute('href', '/edocument/k2');
    // The server's markup never becomes part of the page.
    expect(container.querySelector('#qr-marker')).toBeNull();
  });

  it('links the signed PDF in the language and the signed calendar file', async () => {
    await openPage();
    const pdf = await screen.findByRole('link', { name: 'הורדת הכרטיסים (PDF)' });
    expect(pdf).toHaveAttribute(
      'href',
      '/api/reservations/r-1/tickets.pdf?exp=1900000000&sig=abc123&lang=he',
    );
    expect(screen.getByRole('link', { name: 'הוספה ליומן' })).toHaveAttribute(
      'href',
      '/api/reservations/r-1/calendar.ics?exp=1900000000&sig=abc123',
    );
  });

  it('sends the tickets by SMS to a valid number', async () => {
    const user = userEvent.setup();
    const { fetchMock } = await openPage();
    const phone = await screen.findByLabelText('טלפון נייד');
    await user.type(phone, '123');
    await user.click(screen.getByRole('button', { name: 'שליחה' }));
    expect(phone).toHaveAttribute('aria-invalid', 'true');

    await user.clear(phone);
    await user.type(phone, '052-431-8876');
    await user.click(screen.getByRole('button', { name: 'שליחה' }));
    expect(await screen.findByText('הכרטיסים נשלחו')).toBeInTheDocument();
    const calls = fetchMock.mock.calls as unknown as [RequestInfo | URL, RequestInit?][];
    const send = calls.find(([input]) => String(input).endsWith('/sendTickets'));
    expect(send?.[1]?.method).toBe('POST');
    expect(JSON.parse(String(send?.[1]?.body))).toEqual({ mobileNumber: '0524318876' });
  });

  it('shares the signed address of the page, so it opens on another device', async () => {
    const user = userEvent.setup();
    await openPage();
    const writeText = vi.spyOn(navigator.clipboard, 'writeText').mockResolvedValue();
    await user.click(await screen.findByRole('button', { name: 'שיתוף' }));
    await waitFor(() =>
      expect(writeText).toHaveBeenCalledWith(
        `${window.location.origin}/reservation/r-1?exp=1900000000&sig=abc123`,
      ),
    );
    expect(screen.getByText('הקישור הועתק')).toBeInTheDocument();
  });

  it('passes the signed link of its own address to the read-back, on a device without the session', async () => {
    const { calls } = await openPage('/reservation/r-1?exp=1900000000&sig=abc123&lang=en', {
      session: false,
    });
    expect(
      await screen.findByRole('heading', { name: 'Your order is complete' }),
    ).toBeInTheDocument();
    const read = calls.find((u) => u.pathname === '/api/reservations/r-1');
    expect(read?.searchParams.get('exp')).toBe('1900000000');
    expect(read?.searchParams.get('sig')).toBe('abc123');
    expect(screen.getAllByRole('img', { name: /^Entrance QR code/ })).toHaveLength(2);
    expect(screen.getByRole('link', { name: /Open the digital ticket.*seat 7/ })).toHaveAttribute(
      'href',
      '/edocument/k1?lang=en',
    );
    // A text message goes out for the buyer's own session only: not offered to a link's reader.
    expect(screen.queryByLabelText('Mobile number')).not.toBeInTheDocument();
  });

  it('says plainly when the reservation is not there for this reader, with a way onward', async () => {
    await openPage('/reservation/r-1', { session: false });
    expect(
      await screen.findByRole('heading', { name: 'לא מצאנו כאן הזמנה', level: 1 }),
    ).toBeInTheDocument();
    expect(screen.getByText(/מהקישור שבמייל האישור/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'לרשימת ההקרנות' })).toHaveAttribute('href', '/');
    expect(screen.queryByRole('heading', { name: 'ההזמנה הושלמה' })).not.toBeInTheDocument();
  });

  it('says an expired or wrong link may be the reason', async () => {
    await openPage('/reservation/r-1?exp=1&sig=00&lang=en', { session: false });
    expect(
      await screen.findByRole('heading', { name: 'We could not find this reservation' }),
    ).toBeInTheDocument();
    expect(screen.getByText(/may have expired/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: "See what's on" })).toHaveAttribute(
      'href',
      '/?lang=en',
    );
  });

  it('reads in English', async () => {
    await openPage('/reservation/r-1?lang=en');
    expect(
      await screen.findByRole('heading', { name: 'Your order is complete' }),
    ).toBeInTheDocument();
    expect(screen.getByText('Balcony, row 4, seat 7 · Regular')).toBeInTheDocument();
    expect(screen.getByText('No refunds after the screening starts.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Download tickets (PDF)' })).toHaveAttribute(
      'href',
      '/api/reservations/r-1/tickets.pdf?exp=1900000000&sig=abc123&lang=en',
    );
  });
  it('tells a film watched at home by its window and viewings, with no seat, doors or printed tickets', async () => {
    const film = makePresentation({ isVod: true, venueTypeId: 101 });
    const saved = { ...reservation };
    Object.assign(reservation, {
      presentation: film,
      presentations: [film],
      products: [],
      seats: [
        {
          ...reservation.seats[0],
          section: 'צפייה בבית',
          sectionEn: 'Home viewing',
          row: '1',
          seat: '20',
          ticketType: 'השכרה ל־48 שעות',
          ticketTypeEn: 'Rental, 48 hours',
          price: 2990,
        },
      ],
      priceBreakdown: {
        tickets: 3490,
        ticketsServiceCharge: 500,
        orderServiceCharge: 0,
        products: 0,
        total: 3490,
      },
      total: 3490,
      vod: {
        ReservationIdentifier: 'r-1',
        reservationNumber: '100234',
        presentation: film,
        offer: 'rent',
        status: 'available',
        availabilityStart: '2026-07-01T10:00:00Z',
        availabilityEnd: '2026-07-03T10:00:00Z',
        playbackCount: 0,
        playbackBalance: 3,
        lastPlayback: null,
        purchaseDate: '2026-07-01T10:00:00Z',
      },
    });
    try {
      await openPage('/reservation/r-1?lang=en');
      expect(
        await screen.findByRole('heading', { name: 'Your film is ready' }),
      ).toBeInTheDocument();
      // Its window (13:00 in Jerusalem, two days on) and its viewings; no hall, hour or doors.
      expect(screen.getByText('Available until')).toBeInTheDocument();
      expect(
        screen.getByText(
          (_, el) => el?.tagName === 'TIME' && /03\/07\/2026.*13:00/.test(el.textContent ?? ''),
        ),
      ).toBeInTheDocument();
      expect(screen.getByText('3 left, 0 used')).toBeInTheDocument();
      expect(screen.getByText('The confirmation was sent to dana@example.com')).toBeInTheDocument();
      for (const gone of ['When', 'Doors open', 'Where', 'Digital tickets']) {
        expect(screen.queryByText(gone)).toBeNull();
      }
      // One line for the rental and the total: no "Tickets" subtotal repeating it, no seat.
      const lines = screen.getByRole('region', { name: 'Your purchase' });
      expect(within(lines).getByText('Rental, 48 hours')).toBeInTheDocument();
      expect(within(lines).queryByText('Tickets')).toBeNull();
      expect(within(lines).queryByText(/seat 20/)).toBeNull();
      expect(screen.queryByRole('link', { name: 'Download tickets (PDF)' })).toBeNull();
      expect(screen.getByRole('heading', { name: 'Send the link by SMS' })).toBeInTheDocument();
      expect(screen.queryByText('Send the tickets by SMS')).toBeNull();
    } finally {
      for (const key of Object.keys(reservation))
        delete (reservation as Record<string, unknown>)[key];
      Object.assign(reservation, saved);
    }
  });
});
