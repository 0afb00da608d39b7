import type { AreaCustomer, CustomerAreaData } from '../api/customerArea';

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
