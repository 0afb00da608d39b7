import type { AreaCustomer, CustomerAreaData } from '../api/customerArea';
import type { ApiHandler } from '../../../test/renderApp';

/** The demo's customer 1 (Dana Levi) as the customer area's data sends her: nothing bought yet.
 * Tests give what they are about in `overrides`. */
export function makeCustomer(overrides: Partial<AreaCustomer> = {}): AreaCustomer {
  return {
    CustomerId: 1,
    FirstName: 'Dana',
    LastName: 'Levi',
    SSN: '*****8711',
    EmailAddress1: 'dana.levi@example.com',
    MobileNumber1: '0524318876',
    Address1: '',
    Address2: '',
    City: '',
    PostalCode: '',
    DateOfBirth: '',
    LicensePlateNumber: '',
    IsSMSAllowed: true,
    IsMailingAllowed: true,
    IsEmailAllowed: false,
    Location: null,
    Members: [],
    MagCards: [],
    SystemVouchers: [],
    VODTickets: [],
    PastReservations: [],
    Tickets: [],
    ...overrides,
  };
}

/** `GET /api/customer-area/customerAreaData`'s answer for [makeCustomer]'s customer. */
export function makeArea(overrides: Partial<AreaCustomer> = {}): CustomerAreaData {
  return { serverTime: '2026-07-10T09:00:00Z', customer: makeCustomer(overrides) };
}

/**
 * The server of the customer area's tests: `data` as the area's data, no complexes to choose
 * from, and whatever else `more` answers.
 */
export function areaApi(data: CustomerAreaData, more: ApiHandler = () => undefined): ApiHandler {
  return (url, init) => {
    if (url.pathname === '/api/customer-area/customerAreaData') return { body: data };
    if (url.pathname === '/api/customer/locations') return { body: { locations: [] } };
    return more(url, init);
  };
}
