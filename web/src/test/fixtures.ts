import type {
  Feature,
  Presentation,
  SeatShort,
  SeatplanV2,
  SeatsStatusCompactResponse,
  SiteConfig,
  Ticket,
} from '../lib/api/types';
import demoConfig from './data/config.json';

export function makePresentation(overrides: Partial<Presentation> = {}): Presentation {
  return {
    id: 101,
    venueId: 11,
    venueName: 'אולם 3',
    venueNameEn: 'Hall 3',
    seatplanId: 7,
    venueTypeId: 1,
    featureCategoryId: 1,
    featureCategoryName: 'דרמה',
    featureCategoryNameEn: 'Drama',
    featureId: 1,
    featureName: 'הסרט הגדול',
    featureNameEn: 'The Big Movie',
    featureImageUrl: '/api/features/1/placeholderImage',
    featureTrailerUrl: '',
    locationId: 2,
    locationName: 'קולנוע הדר',
    locationNameEn: 'Hadar Cinema',
    dateTime: '2026-07-14T17:30:00Z',
    authProfileId: 1,
    businessId: 0,
    isReserved: true,
    isGA: 0,
    seatingPolicyId: 1,
    seatingMode: 'reserved',
    hasReservedSection: true,
    hasGASection: false,
    hasMultiGASections: false,
    newBookingUrl: '',
    saleStartsAt: '2026-06-01T06:00:00Z',
    saleEndsAt: '2026-07-14T17:30:00Z',
    saleState: 'onSale',
    isOnSale: true,
    isVod: false,
    runtime: 118,
    classification: '12+',
    classificationEn: '12+',
    ...overrides,
  };
}

export function makeFeature(overrides: Partial<Feature> = {}): Feature {
  return {
    id: 1,
    name: 'הסרט הגדול',
    nameEn: 'The Big Movie',
    categoryId: 1,
    categoryName: 'דרמה',
    categoryNameEn: 'Drama',
    originalLanguage: 'en',
    dubbing: '',
    subtitles: 'he',
    originalLanguageEn: 'English',
    dubbingEn: '',
    subtitlesEn: 'Hebrew',
    releaseDate: '2026-06-01',
    runtime: 118,
    classification: '12+',
    classificationEn: '12+',
    synopsis: 'תקציר',
    synopsisEn: 'A synopsis.',
    imageUrl: '/api/features/1/placeholderImage',
    trailerUrl: '',
    ...overrides,
  };
}

/** A real GET /api/config answer of the demo server (allow list and test mode changed). */
export function makeConfig(overrides: Partial<SiteConfig> = {}): SiteConfig {
  return { ...structuredClone(demoConfig), ...overrides };
}

/** A plain seat of a seat plan's short form: row y+1, seat x+1, of section `si`. */
export function makeSeat(x: number, y: number, overrides: Partial<SeatShort> = {}): SeatShort {
  return {
    x,
    y,
    r: String(y + 1),
    n: String(x + 1),
    si: 11,
    gi: y,
    pi: 1,
    vi: 11,
    sp: 7,
    tg: 1,
    ai: 0,
    m: [],
    pr: false,
    hc: false,
    co: false,
    lv: false,
    sf: null,
    ...overrides,
  };
}

/** A seat plan of one reserved section holding `seats` (a grid as wide and high as they need). */
export function makeSeatplan(seats: SeatShort[], overrides: Partial<SeatplanV2> = {}): SeatplanV2 {
  const width = Math.max(0, ...seats.map((s) => s.x)) + 1;
  const height = Math.max(0, ...seats.map((s) => s.y)) + 1;
  const si = seats[0]?.si ?? 11;
  return {
    id: seats[0]?.sp ?? 7,
    venueId: seats[0]?.vi ?? 11,
    name: 'אולם',
    width,
    height,
    bestX: Math.floor(width / 2),
    bestY: height - 1,
    screen: { label: 'מסך', labelEn: 'Screen' },
    sections: [
      {
        id: si,
        name: 'אולם',
        nameEn: 'Stalls',
        kind: 'reserved',
        capacity: seats.length,
        ticketGroupId: seats[0]?.tg ?? 1,
        priceLevel: 1,
      },
    ],
    seats,
    ...overrides,
  };
}

/** A screening of a membership season as the server lists it (GET /enroll/{id}, a seated membership). */
export function makeSeasonPresentation(id: number, day: number, required = true) {
  return {
    PresentationId: id,
    IsRequired: required,
    MembershipPayableAmount: 0,
    featureId: 1,
    featureName: `סרט ${id}`,
    featureNameEn: `Film ${id}`,
    dateTime: `2026-12-${String(day).padStart(2, '0')}T18:30:00Z`,
    locationName: 'תל אביב',
    locationNameEn: 'Tel Aviv',
    venueId: 6,
    venueName: 'אולם 3 – סטודיו',
    venueNameEn: 'Hall 3 – Studio',
    seatplanId: 6,
  };
}

/**
 * A full answer of GET /seats/seats-statusV2/compact: one letter per seat of the plan (a free,
 * m held by this buyer, o held by another, s sold), the indexes blocked by the single-seat rule
 * and those sold at the box office only.
 */
export function makeCompactStatus(
  presentationId: number,
  letters: string,
  overrides: Partial<SeatsStatusCompactResponse> = {},
): SeatsStatusCompactResponse {
  return {
    presentationId,
    version: 'f0.1',
    full: true,
    seats: letters,
    blocked: [],
    boxOffice: [],
    sections: [],
    serverTime: '2026-07-14T09:00:00Z',
    ...overrides,
  };
}

/** A ticket type of group 1: 10.00 ILS, no service charge, anyone may buy up to 10; what a test
 * is about in `overrides`. */
export function makeTicket(id: number, overrides: Partial<Ticket> = {}): Ticket {
  return {
    id,
    ticketId: id,
    ticketGroupId: 1,
    name: `t${id}`,
    nameEn: '',
    price: 1000,
    oldPrice: null,
    serviceCharge: 0,
    currency: 'ILS',
    pricePolicyId: 1,
    minQuantity: 0,
    maxQuantity: 10,
    requiresTicketId: null,
    memberOnly: false,
    needsSeniorId: false,
    refPrompt: '',
    refPromptEn: '',
    loyaltyPointsPrice: null,
    isLoyaltyPointsRedemption: false,
    multiplyFactor: 1,
    seatKind: null,
    ...overrides,
  };
}

/**
 * GET /customer/me for a logged-in customer (Noa Barak, no number proven), logged in at 10:00 on
 * `day` for two hours.
 */
export function makeCustomerLogin(
  day = '2026-11-25',
  overrides: Partial<ReturnType<typeof customerLoginOn>> = {},
) {
  return { ...customerLoginOn(day), ...overrides };
}

function customerLoginOn(day: string) {
  return {
    customerInfo: { CustomerId: 1000001, FirstName: 'Noa', LastName: 'Barak' },
    mobileNumber: '',
    loggedInAt: `${day}T10:00:00Z`,
    expiresAt: `${day}T12:00:00Z`,
    serverTime: `${day}T10:00:00Z`,
  };
}
