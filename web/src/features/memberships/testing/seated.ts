// The demo's seated membership (contract of issue 15, decision 0043): membership 4, season 2 with
// screenings 911, 912 and 913 in the Studio hall, as GET /memberships answers it.
import type { EnrollSelection } from '../../../lib/api/enroll';
import type { Membership, MembershipSeats } from '../../../lib/api/memberships';

export function seasonPresentation(id: number, day: number) {
  return {
    PresentationId: id,
    IsRequired: true,
    MembershipPayableAmount: 0,
    featureId: id,
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

export const thursdaySeats: MembershipSeats = {
  seasonId: 2,
  name: 'חמישי בקאמרי',
  nameEn: 'Thursdays at the Cameri',
  presentations: [
    seasonPresentation(911, 3),
    seasonPresentation(912, 10),
    seasonPresentation(913, 17),
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
