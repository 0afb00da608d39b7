import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { makePresentation } from '../../test/fixtures';
import { renderApp } from '../../test/renderApp';
import type { CustomerAreaData, MemberCard } from './api/customerArea';
import { areaApi, makeArea } from './testing/area';

function area(): CustomerAreaData {
  const presentation = makePresentation();
  return makeArea({
    Address1: 'Dizengoff 210',
    City: 'Tel Aviv',
    PostalCode: '6311712',
    DateOfBirth: '1986-04-17',
    Tickets: [
      {
        ReservationIdentifier: 'R1',
        reservationNumber: '1234-5678',
        status: 'paid',
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
            serviceCharge: 500,
            state: 'valid',
            documentKey: 'K1',
            edocumentUrl: '/edocument/K1',
          },
        ],
        total: 4700,
        currency: 'ILS',
        paidAt: '2026-07-01T10:00:00Z',
        pdfUrl: '/api/reservations/R1/tickets.pdf?exp=1&sig=ab',
        calendarUrl: '/api/reservations/R1/calendar.ics?exp=1&sig=ab',
        reservationUrl: '/reservation/R1',
        seatChangeUrl: '/reservation/R1/seats',
      },
    ],
  });
}

describe('the customer area', { timeout: 30_000 }, () => {
  it('sends a visitor who is not logged in to the login, coming back after it', async () => {
    const { getRouter } = await renderApp('/customer-area?lang=en', {
      api: (url) =>
        url.pathname === '/api/customer-area/customerAreaData'
          ? { status: 401, body: { error: { code: 'loginError', message: 'log in first' } } }
          : undefined,
    });
    await waitFor(() => expect(getRouter()?.state.location.pathname).toBe('/customer-area/login'), {
      timeout: 4000,
    });
    const search = new URLSearchParams(getRouter()?.state.location.search);
    expect(search.get('returnTo')).toBe('/customer-area');
    expect(search.get('lang')).toBe('en');
  });

  it('after logging in on the login page, coming back shows the area, not the login again', async () => {
    let loggedIn = false;
    const { getRouter } = await renderApp('/customer-area?lang=en', {
      api: (url) =>
        url.pathname === '/api/customer-area/customerAreaData'
          ? loggedIn
            ? { status: 200, body: area() }
            : { status: 401, body: { error: { code: 'loginError', message: 'log in first' } } }
          : undefined,
    });
    await waitFor(() => expect(getRouter()?.state.location.pathname).toBe('/customer-area/login'), {
      timeout: 4000,
    });
    await screen.findByRole('heading', { name: 'Log in to your account' }, { timeout: 15_000 });
    // The login succeeded (the cookie is the browser's): the login page goes back.
    loggedIn = true;
    await act(() => getRouter()!.navigate('/customer-area?lang=en'));
    expect(
      await screen.findByRole('heading', { name: 'Customer area', level: 1 }, { timeout: 15_000 }),
    ).toBeVisible();
    expect(getRouter()?.state.location.pathname).toBe('/customer-area');
  });

  it('shows the tickets with their seats and links, and sends them by SMS', async () => {
    const sent: unknown[] = [];
    const { fetchMock } = await renderApp('/customer-area?lang=en', {
      api: areaApi(area(), (url) => {
        if (url.pathname === '/api/reservations/R1/sendTickets') return { body: { success: true } };
        return undefined;
      }),
    });
    expect(
      await screen.findByRole('heading', { name: 'Customer area', level: 1 }),
    ).toBeInTheDocument();
    const tickets = screen.getByRole('region', { name: 'My tickets' });
    expect(within(tickets).getByText('Stalls, row 5, seat 7 · Regular')).toBeInTheDocument();
    expect(within(tickets).getByRole('link', { name: /Tickets \(PDF\)/ })).toHaveAttribute(
      'href',
      '/api/reservations/R1/tickets.pdf?exp=1&sig=ab&lang=en',
    );
    expect(within(tickets).getByRole('link', { name: /Manage \/ cancel/ })).toHaveAttribute(
      'href',
      '/reservation/R1?lang=en',
    );
    expect(within(tickets).getByRole('link', { name: /^Change seats/ })).toHaveAttribute(
      'href',
      '/reservation/R1/seats?lang=en',
    );
    expect(
      screen.getByText('System vouchers bought online will be listed here. You have none yet.'),
    ).toBeInTheDocument();

    const user = userEvent.setup();
    await user.click(within(tickets).getByRole('button', { name: /Send the tickets by SMS/ }));
    await user.type(within(tickets).getByLabelText('Mobile number to send to'), '123');
    await user.click(within(tickets).getByRole('button', { name: 'Send' }));
    expect(await within(tickets).findByText('The mobile number is not valid')).toBeInTheDocument();
    await user.clear(within(tickets).getByLabelText('Mobile number to send to'));
    await user.type(within(tickets).getByLabelText('Mobile number to send to'), '052-123-4567');
    await user.click(within(tickets).getByRole('button', { name: 'Send' }));
    expect(await within(tickets).findByText('The tickets were sent by SMS.')).toBeInTheDocument();
    for (const call of fetchMock.mock.calls as unknown as [
      RequestInfo,
      RequestInit | undefined,
    ][]) {
      const [input, init] = call;
      if (String(input).includes('sendTickets')) sent.push(JSON.parse(String(init?.body)));
    }
    expect(sent).toEqual([{ mobileNumber: '0521234567' }]);
  });

  it('checks the profile before sending it and shows the server’s field errors', async () => {
    const bodies: unknown[] = [];
    const { fetchMock } = await renderApp('/customer-area?lang=en', {
      api: (url) => {
        if (url.pathname === '/api/customer-area/customerAreaData') return { body: area() };
        if (url.pathname === '/api/customer/locations')
          return {
            body: { locations: [{ id: 2, name: 'הדר', nameEn: 'Hadar', city: '', cityEn: '' }] },
          };
        if (url.pathname === '/api/customer-area/profile')
          return {
            status: 422,
            body: {
              error: {
                code: 'formValidation',
                message: 'x',
                params: { fields: { city: 'alpha' } },
              },
            },
          };
        return undefined;
      },
    });
    const user = userEvent.setup();
    const profile = await screen.findByRole('region', { name: 'Profile' });
    const born = within(profile).getByLabelText('Date of birth');
    await user.clear(within(profile).getByLabelText('Last name'));
    await user.click(within(profile).getByRole('button', { name: 'Save profile' }));
    expect(await within(profile).findByText('Last name is required')).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([u]) => String(u).includes('/profile'))).toBe(false);

    await user.type(within(profile).getByLabelText('Last name'), 'Levi');
    expect(born).toHaveValue('1986-04-17');
    await user.click(within(profile).getByRole('button', { name: 'Save profile' }));
    expect(await within(profile).findByText('City must contain letters only')).toBeInTheDocument();
    for (const call of fetchMock.mock.calls as unknown as [
      RequestInfo,
      RequestInit | undefined,
    ][]) {
      const [input, init] = call;
      if (String(input).includes('/profile')) bodies.push(JSON.parse(String(init?.body)));
    }
    expect(bodies[0]).toMatchObject({ lastName: 'Levi', location: null, isEmailAllowed: false });
  });

  it('offers a top-up on a member card that can be topped up, and a membership to buy when there is none', async () => {
    const data = area();
    const member = {
      name: 'כרטיסיית 10 סרטים',
      nameEn: '10-film pass',
      memberNumber: '40000017',
      membershipId: 2,
      membershipTypeId: 2,
      className: '',
      balance: 35000,
      pointsBalance: 0,
      currency: 'ILS',
      customerId: 1,
      startDate: '2026-07-01',
      endDate: '2027-06-30',
      isAvailable: true,
      isExpired: false,
      isNotStarted: false,
    };
    const cards: MemberCard[] = [
      { ...member, topUp: true },
      {
        ...member,
        memberNumber: '40000025',
        name: 'כרטיס מועדון',
        nameEn: 'Club card',
        topUp: false,
      },
    ];
    data.customer.Members = cards;
    const first = await renderApp('/customer-area?lang=en', {
      api: areaApi(data),
    });
    const section = await screen.findByRole(
      'region',
      { name: 'Memberships and vouchers' },
      {
        timeout: 5000,
      },
    );
    const topUps = within(section).getAllByRole('link', { name: /^Top up/ });
    expect(topUps).toHaveLength(1);
    expect(topUps[0]).toHaveAccessibleName('Top up 10-film pass, card 40000017');
    expect(topUps[0]).toHaveAttribute('href', '/memberships?topUp=40000017&lang=en');
    expect(within(section).queryByRole('link', { name: 'Buy a membership' })).toBeNull();
    first.unmount();

    await renderApp('/customer-area?lang=en', {
      api: areaApi(area()),
    });
    const empty = await screen.findByRole(
      'region',
      { name: 'Memberships and vouchers' },
      {
        timeout: 5000,
      },
    );
    expect(within(empty).getByRole('link', { name: 'Buy a membership' })).toHaveAttribute(
      'href',
      '/memberships?lang=en',
    );
  });

  it('offers the enrolment on a member card whose membership has a season open, or says it is enrolled', async () => {
    const data = area();
    const member: MemberCard = {
      name: 'כרטיסיית 10 סרטים',
      nameEn: '10-film pass',
      memberNumber: '200001',
      membershipId: 2,
      membershipTypeId: 2,
      className: '',
      balance: 23100,
      pointsBalance: 0,
      currency: 'ILS',
      customerId: 1,
      startDate: '2026-07-01',
      endDate: '2027-06-30',
      isAvailable: true,
      isExpired: false,
      isNotStarted: false,
      topUp: false,
    };
    data.customer.Members = [
      member,
      { ...member, memberNumber: '200002' },
      {
        ...member,
        memberNumber: '300001',
        membershipId: 3,
        name: 'כרטיס סטודנט',
        nameEn: 'Student card',
      },
    ];
    const asked: string[] = [];
    const enrolled = (n: string) => ({
      memberNumber: n,
      name: 'Dana Levi',
      balance: 0,
      startDate: member.startDate,
      endDate: member.endDate,
      isAvailable: true,
      enrolled: n === '200002',
    });
    await renderApp('/customer-area?lang=en', {
      api: areaApi(data, (url) => {
        if (url.pathname.startsWith('/api/enroll/')) asked.push(url.pathname);
        if (url.pathname === '/api/enroll/2') {
          return {
            body: {
              enrollMembership: {
                SeasonId: 1,
                MembershipId: 2,
                Name: 'עונת חמישי',
                NameEn: 'Thursdays',
              },
              members: [enrolled('200001'), enrolled('200002')],
            },
          };
        }
        return undefined;
      }),
    });
    const section = await screen.findByRole(
      'region',
      { name: 'Memberships and vouchers' },
      { timeout: 5000 },
    );
    const offer = await within(section).findByRole('link', { name: /^Enrol member/ });
    expect(offer).toHaveAccessibleName('Enrol member 200001 in the season Thursdays');
    expect(offer).toHaveAttribute('href', '/enroll/2?member=200001&lang=en');
    expect(within(section).getAllByRole('link', { name: /^Enrol member/ })).toHaveLength(1);
    expect(within(section).getByText('Enrolled in Thursdays')).toBeInTheDocument();
    // One question per membership, not per card; the student card's has no season (404).
    expect([...asked].sort()).toEqual(['/api/enroll/2', '/api/enroll/3']);
  });
});
