import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../../test/renderApp';
import { cinemaFilterData, staffUser } from './testing/staffAnswers';

const figures = (sold: number, capacity: number) => ({
  Capacity: capacity,
  SoldQuantity: sold,
  HeldQuantity: 0,
  Sold: Math.round((100 * sold) / capacity),
  Held: 0,
  Availability: capacity - sold,
  SeatTakenRatio: sold / capacity,
  Presentations: 1,
});

const manager = staffUser();

describe('the live monitoring page', () => {
  it('logs a staff user in, asks for the authenticator code, then shows the calendar and drills to a day', async () => {
    let loggedIn = false;
    const logins: unknown[] = [];
    const { fetchMock } = await renderApp('/PRES-live?lang=en', {
      api: (url) => {
        if (url.pathname === '/api/staff/me')
          return loggedIn
            ? { body: manager }
            : { status: 401, body: { error: { code: 'loginError', message: '' } } };
        if (url.pathname === '/api/staff/login') {
          if (logins.length === 1)
            return {
              status: 401,
              body: {
                error: { code: 'LOGIN_FAILED', message: '', params: { totpRequired: true } },
              },
            };
          loggedIn = true;
          return { body: manager };
        }
        if (url.pathname === '/api/PRES-live/getCinemaFilterData')
          return { body: cinemaFilterData() };
        if (url.pathname === '/api/PRES-live/attendanceByDate/2030-06-11/2030-06-13')
          return {
            body: {
              days: ['2030-06-11', '2030-06-12', '2030-06-13'].map((d, i) => ({
                BusinessDate: d,
                ...figures(10 * i, 100),
              })),
            },
          };
        if (url.pathname === '/api/PRES-live/attendanceByDateByLocation/2030-06-12')
          return {
            body: {
              date: '2030-06-12',
              rows: [
                { LocationId: 2, Name: 'נמל', NameEn: 'Port', ...figures(10, 100) },
                {
                  LocationId: -1,
                  Name: 'כל בתי הקולנוע',
                  NameEn: 'All cinemas',
                  ...figures(10, 100),
                },
              ],
            },
          };
        return undefined;
      },
    });
    fireEvent.change(await screen.findByLabelText('Email'), {
      target: { value: 'manager@kupa.example' },
    });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'a long password' } });
    logins.push('first');
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }));
    const code = await screen.findByLabelText('Code from your authenticator app');
    fireEvent.change(code, { target: { value: '123456' } });
    logins.push('second');
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }));

    const today = await screen.findByRole('button', { current: 'date' });
    expect(today).toHaveTextContent('10 of 100 sold');
    expect(screen.getAllByRole('listitem').length).toBeGreaterThanOrEqual(3);
    const body = fetchMock.mock.calls
      .filter((call) => String((call as unknown[])[0]).endsWith('/api/staff/login'))
      .map(
        (call) =>
          JSON.parse(String(((call as unknown[])[1] as RequestInit).body)) as Record<
            string,
            unknown
          >,
      );
    expect(body[1]).toMatchObject({ email: 'manager@kupa.example', totpCode: '123456' });

    fireEvent.click(today);
    const table = await screen.findByRole('table');
    const rows = within(table).getAllByRole('row');
    expect(rows[rows.length - 1]).toHaveTextContent('All cinemas');
    expect(within(table).getByRole('button', { name: 'Port' })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByText('Noa Mizrahi · Manager')).toBeInTheDocument());
  }, 20_000);
});
