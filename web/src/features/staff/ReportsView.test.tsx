import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp, type ApiHandler } from '../../test/renderApp';
import { PORT, cinemaFilterData, staffUser } from './testing/staffAnswers';

const staff = (role: string) => staffUser(role, [1, 2]);

const filterData = cinemaFilterData({
  locations: [PORT, { id: 5, name: 'חיפה', nameEn: 'Haifa', businessId: 2, isCinema: true }],
  calendarFrom: '2026-11-12',
  calendarTo: '2026-12-10',
  today: '2026-11-26',
});

const column = (key: string, label: string, labelEn: string, kind: string) => ({
  key,
  label,
  labelEn,
  kind,
});

/** 30 screenings of the Port's two halls: two pages of the attendance by venue. */
const attendance = {
  report: 'attendance-venue',
  from: '2026-11-20',
  to: '2026-11-26',
  businessIds: [1, 2],
  columns: [
    column('location', 'קולנוע', 'Cinema', 'text'),
    column('venue', 'אולם', 'Hall', 'text'),
    column('date', 'תאריך', 'Date', 'date'),
    column('time', 'שעה', 'Time', 'time'),
    column('feature', 'סרט', 'Feature', 'text'),
    column('capacity', 'קיבולת', 'Capacity', 'count'),
    column('sold', 'נמכרו', 'Sold', 'count'),
    column('occupancy', 'תפוסה', 'Occupancy', 'percent'),
    column('revenue', 'הכנסות', 'Revenue', 'money'),
  ],
  rows: Array.from({ length: 30 }, (_, i) => ({
    location: 'נמל',
    locationEn: 'Port',
    venue: i % 2 ? 'אולם 2' : 'אולם 1',
    venueEn: i % 2 ? 'Hall 2' : 'Hall 1',
    date: `2026-11-${String(20 + (i % 7)).padStart(2, '0')}`,
    time: `${String(10 + (i % 12)).padStart(2, '0')}:30`,
    feature: `סרט ${i + 1}`,
    featureEn: `Feature ${String(i + 1).padStart(2, '0')}`,
    capacity: 100,
    sold: (i * 7) % 31,
    occupancy: (i * 7) % 31,
    revenue: ((i * 7) % 31) * 4200,
  })),
  totals: { capacity: 3000, sold: 450, occupancy: 15, revenue: 1890050 },
};

function api(
  report: (url: URL) => { status?: number; body: unknown },
  role = 'manager',
): ApiHandler {
  return (url) => {
    if (url.pathname === '/api/staff/me') return { body: staff(role) };
    if (url.pathname === '/api/PRES-live/getCinemaFilterData') return { body: filterData };
    if (url.pathname.startsWith('/api/staff/reports/')) return report(url);
    if (url.pathname.startsWith('/api/PRES-live/attendanceByDate/')) return { body: { days: [] } };
    return undefined;
  };
}

const bodyRows = (table: HTMLElement) =>
  within(table)
    .getAllByRole('row')
    .filter((r) => r.closest('tbody'));

describe('the reports view', () => {
  it('asks for the last seven days of all the manager’s businesses and pages, sorts and totals the rows', async () => {
    const asked: URL[] = [];
    await renderApp('/PRES-live?lang=en&view=reports', {
      api: api((url) => {
        asked.push(url);
        return { body: attendance };
      }),
    });
    const table = await screen.findByRole('table', { name: /Attendance by showtime and venue/ });
    expect(asked[0].pathname).toBe('/api/staff/reports/attendance-venue');
    expect(asked[0].searchParams.get('from')).toBe('2026-11-20');
    expect(asked[0].searchParams.get('to')).toBe('2026-11-26');
    expect(asked[0].searchParams.get('businessIds')).toBe('1,2');

    // The first page: 25 rows, money in shekels, percent, day/month/year.
    expect(bodyRows(table)).toHaveLength(25);
    const second = within(bodyRows(table)[1]).getAllByRole('cell');
    expect(second.map((c) => c.textContent)).toEqual([
      'Port',
      'Hall 2',
      '21/11/2026',
      '11:30',
      'Feature 02',
      '100',
      '7',
      '7%',
      '₪294.00',
    ]);
    expect(screen.getByText('Rows 1–25 of 30')).toBeInTheDocument();
    const total = within(table).getAllByRole('row').at(-1)!;
    expect(total).toHaveTextContent('Total');
    expect(total).toHaveTextContent('₪18,900.50');
    expect(total).toHaveTextContent('450');

    // Page 2 holds the last 5.
    fireEvent.click(screen.getByRole('button', { name: 'Page 2' }));
    expect(bodyRows(table)).toHaveLength(5);
    expect(screen.getByRole('button', { name: 'Page 2' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByRole('button', { name: 'Next page' })).toBeDisabled();

    // Sorting by Sold: biggest first, back on page 1; again: smallest first.
    const soldHead = within(table).getByRole('columnheader', { name: /Sold/ });
    fireEvent.click(within(soldHead).getByRole('button'));
    expect(soldHead).toHaveAttribute('aria-sort', 'descending');
    expect(screen.getByText('Rows 1–25 of 30')).toBeInTheDocument();
    const soldOf = () =>
      bodyRows(table).map((r) => Number(within(r).getAllByRole('cell')[6].textContent));
    expect(soldOf()[0]).toBe(30);
    expect(soldOf()).toEqual([...soldOf()].sort((a, b) => b - a));
    fireEvent.click(within(soldHead).getByRole('button'));
    expect(soldHead).toHaveAttribute('aria-sort', 'ascending');
    expect(soldOf()[0]).toBe(0);
    expect(within(table).getByRole('columnheader', { name: /Feature/ })).not.toHaveAttribute(
      'aria-sort',
    );

    // The downloads are the same call in the UI's language.
    const csv = screen.getByRole('link', { name: 'Export CSV' });
    expect(csv.getAttribute('href')).toBe(
      '/api/staff/reports/attendance-venue?from=2026-11-20&to=2026-11-26&businessIds=1%2C2&format=csv&lang=en',
    );
    expect(screen.getByRole('link', { name: 'Export XLSX' }).getAttribute('href')).toContain(
      'format=xlsx&lang=en',
    );
  }, 20_000);

  it('asks again for another report, one business and a new range, and refuses a backward range', async () => {
    const asked: URL[] = [];
    await renderApp('/PRES-live?lang=en&view=reports', {
      api: api((url) => {
        asked.push(url);
        const report = url.pathname.split('/').pop();
        return {
          body: {
            ...attendance,
            report,
            columns: [
              column('product', 'מוצר', 'Product', 'text'),
              column('quantity', 'כמות', 'Quantity', 'count'),
            ],
            rows: [{ product: 'פופקורן', productEn: 'Popcorn', quantity: 3 }],
            totals: null,
          },
        };
      }),
    });
    await screen.findByRole('table');
    fireEvent.change(screen.getByLabelText('Report'), { target: { value: 'products' } });
    const table = await screen.findByRole('table', { name: /Products sold/ });
    expect(within(table).getAllByRole('row')).toHaveLength(2);
    expect(within(table).queryByText('Total')).not.toBeInTheDocument();

    fireEvent.click(screen.getByLabelText('Business 2: Haifa'));
    // The last business left cannot be unticked.
    expect(screen.getByLabelText('Business 1: Port')).toBeDisabled();
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-11-01' } });
    await waitFor(() =>
      expect(asked.at(-1)!.search).toBe('?from=2026-11-01&to=2026-11-26&businessIds=1'),
    );
    expect(asked.at(-1)!.pathname).toBe('/api/staff/reports/products');

    const before = asked.length;
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2026-10-01' } });
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The start date must not be after the end date.',
    );
    expect(screen.queryByRole('link', { name: 'Export CSV' })).not.toBeInTheDocument();
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2025-09-30' } });
    expect(await screen.findByRole('alert')).toHaveTextContent('A report covers at most 366 days.');
    expect(asked.length).toBe(before);
  }, 20_000);

  it('says “Error fetching data!” in Hebrew when the call fails, and retries', async () => {
    let fail = true;
    await renderApp('/PRES-live?lang=he&view=reports&report=top-features', {
      api: api(() =>
        fail
          ? { status: 500, body: { error: { code: 'internal', message: '' } } }
          : {
              body: {
                ...attendance,
                report: 'top-features',
                columns: [
                  column('rank', 'מקום', 'Rank', 'count'),
                  column('feature', 'סרט', 'Feature', 'text'),
                  column('sold', 'נמכרו', 'Sold', 'count'),
                ],
                rows: [{ rank: 1, feature: 'ירח', featureEn: 'Moon', sold: 12 }],
                totals: { sold: 12 },
              },
            },
      ),
    });
    expect(
      await screen.findByRole('heading', { name: 'שגיאה בטעינת הנתונים!' }),
    ).toBeInTheDocument();
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'לנסות שוב' }));
    const table = await screen.findByRole('table', { name: /עשרת הסרטים המובילים/ });
    expect(within(table).getByText('ירח')).toBeInTheDocument();
    expect(screen.queryByText('שגיאה בטעינת הנתונים!')).not.toBeInTheDocument();
    expect(document.documentElement.dir).toBe('rtl');
  }, 20_000);

  it('is not offered to an usher', async () => {
    await renderApp('/PRES-live?lang=en&view=reports', {
      api: api(() => ({ body: attendance }), 'usher'),
    });
    await screen.findByText('Noa Mizrahi · Usher');
    expect(screen.queryByRole('button', { name: 'Reports' })).not.toBeInTheDocument();
    expect(
      screen.queryByRole('heading', { name: /Attendance by showtime/ }),
    ).not.toBeInTheDocument();
  }, 20_000);
});
