// The demo's seated membership (contract of issue 15, decision 0043): membership 4, season 2 with
// screenings 911, 912 and 913 in the Studio hall, as GET /memberships answers it.
import type { EnrollSelection } from '../../../lib/api/enroll';
import type {
  Membership,
  MembershipOrderSeat,
  MembershipSeats,
} from '../../../lib/api/memberships';
import { makeSeasonPresentation } from '../../../test/fixtures';

export const thursdaySeats: MembershipSeats = {
  seasonId: 2,
  name: 'חמישי בקאמרי',
  nameEn: 'Thursdays at the Cameri',
  presentations: [
    makeSeasonPresentation(911, 3),
    makeSeasonPresentation(912, 10),
    makeSeasonPresentation(913, 17),
  ],
};

export function thursday(): Membership {
  return {
    MembershipId: 4,
    MembershipTypeId: 1,
    Name: 'מנוי חמישי בקאמרי – 3 סרטים במושב קבוע',
    NameEn: 'Thursday subscription – three films, your own seat',
    Code: 'M4',
    ClassName: '',
    Description: '',
    DescriptionEn: '',
    prices: [
      {
        MembershipPriceId: 401,
        PriceCode: 'P401',
        Price: 24000,
        value: 0,
        currency: { CurrencyId: 1, CurrencySymbol: '₪', CurrencyCode: 'ILS' },
        references: [],
      },
    ],
    validMonths: 12,
    topUp: false,
    terms: { termsId: 4, text: 'תנאים', textEn: 'Terms' },
    seats: thursdaySeats,
  };
}

/** The seat held in one screening (row y+1, seat x+1 of section 61). */
export function heldSeat(presentationId: number, x: number, y = 0): EnrollSelection {
  return {
    presentationId,
    sectionId: 61,
    x,
    y,
    rowName: String(y + 1),
    seatName: String(x + 1),
    expiresAt: `2026-11-26T10:1${presentationId % 10}:00Z`,
  };
}

/** A seat of the order (the priced cart's or the paid order's `seats`) in one screening. */
export function orderSeat(presentationId: number, row: string, seat: string): MembershipOrderSeat {
  return {
    presentationId,
    featureName: `סרט ${presentationId}`,
    featureNameEn: `Film ${presentationId}`,
    dateTime: '2026-12-03T18:30:00Z',
    venueName: 'אולם 3 – סטודיו',
    venueNameEn: 'Hall 3 – Studio',
    sectionId: 61,
    sectionName: 'אולם',
    sectionNameEn: 'Stalls',
    rowName: row,
    seatName: seat,
    documentKey: `doc-${presentationId}`,
  };
}
