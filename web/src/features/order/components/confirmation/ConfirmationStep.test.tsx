import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '../../../../lib/i18n';
import { resetUuid } from '../../../../lib/api/client';
import { makeConfig, makePresentation } from '../../../../test/fixtures';
import { mockApi } from '../../../../test/renderApp';
import { ConfirmationStep } from './ConfirmationStep';
import type { Reservation } from '../../api/payment';

const reservation: Reservation = {
  ReservationIdentifier: 'r-1',
  reservationNumber: '100234',
  calendarUrl: '/api/reservations/r-1/calendar.ics',
  pdfUrl: '/api/reservations/r-1/tickets.pdf',
  currency: 'ILS',
  customerEmail: 'dana@example.com',
  customerFirstName: 'דנה',
  entranceTime: '2026-07-14T17:00:00Z',
  eventDateTime: '2026-07-14T17:30:00Z',
  orderTerms: 'אין החזרים לאחר תחילת ההקרנה.',
  orderTermsEn: 'No refunds after the screening starts.',
  paidAt: '2026-07-01T10:00:00Z',
  presentation: makePresentation(),
  products: [{ name: 'פופקורן', nameEn: 'Popcorn', quantity: 2, amount: 3000 }],
  seats: [
    {
      documentKey: 'k1',
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
      documentKey: 'k2',
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
};

function renderConfirmation() {
  const calls: { method: string; url: URL; body: unknown }[] = [];
  const fetchMock = mockApi(makeConfig());
  fetchMock.mockImplementation(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    calls.push({
      method: init?.method ?? 'GET',
      url,
      body: init?.body ? JSON.parse(String(init.body)) : undefined,
    });
    const body =
      url.pathname === '/api/reservations/r-1'
        ? { reservation }
        : url.pathname === '/api/reservations/r-1/sendTickets'
          ? { success: true }
          : undefined;
    return new Response(JSON.stringify(body ?? { error: { code: 'notFound', message: '' } }), {
      status: body ? 200 : 404,
      headers: { 'content-type': 'application/json' },
    });
  });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <ConfirmationStep reservationIdentifier="r-1" />
    </QueryClientProvider>,
  );
  return calls;
}

beforeEach(async () => {
  await i18n.changeLanguage('he');
  resetUuid();
});

describe('confirmation step', () => {
  it('lists the tickets at full prices, products and the breakdown, in Israel time', async () => {
    renderConfirmation();
    expect(await screen.findByRole('heading', { name: 'ההזמנה הושלמה' })).toBeInTheDocument();
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
  });

  it('links the PDF in the language and the calendar file', async () => {
    renderConfirmation();
    const pdf = await screen.findByRole('link', { name: 'הורדת הכרטיסים (PDF)' });
    expect(pdf).toHaveAttribute('href', '/api/reservations/r-1/tickets.pdf?lang=he');
    expect(screen.getByRole('link', { name: 'הוספה ליומן' })).toHaveAttribute(
      'href',
      '/api/reservations/r-1/calendar.ics',
    );
  });

  it('sends the tickets by SMS to a valid number', async () => {
    const user = userEvent.setup();
    const calls = renderConfirmation();
    const phone = await screen.findByLabelText('טלפון נייד');
    await user.type(phone, '123');
    await user.click(screen.getByRole('button', { name: 'שליחה' }));
    expect(phone).toHaveAttribute('aria-invalid', 'true');

    await user.clear(phone);
    await user.type(phone, '052-431-8876');
    await user.click(screen.getByRole('button', { name: 'שליחה' }));
    expect(await screen.findByText('הכרטיסים נשלחו')).toBeInTheDocument();
    const send = calls.find((c) => c.url.pathname.endsWith('/sendTickets'));
    expect(send?.method).toBe('POST');
    expect(send?.body).toEqual({ mobileNumber: '0524318876' });
  });

  it('copies the link when the browser cannot share', async () => {
    const user = userEvent.setup();
    renderConfirmation();
    const writeText = vi.spyOn(navigator.clipboard, 'writeText').mockResolvedValue();
    await user.click(await screen.findByRole('button', { name: 'שיתוף' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(window.location.href));
    expect(screen.getByText('הקישור הועתק')).toBeInTheDocument();
  });

  it('reads in English', async () => {
    await i18n.changeLanguage('en');
    renderConfirmation();
    expect(
      await screen.findByRole('heading', { name: 'Your order is complete' }),
    ).toBeInTheDocument();
    expect(screen.getByText('Balcony, row 4, seat 7 · Regular')).toBeInTheDocument();
    expect(screen.getByText('No refunds after the screening starts.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Download tickets (PDF)' })).toHaveAttribute(
      'href',
      '/api/reservations/r-1/tickets.pdf?lang=en',
    );
  });
});
