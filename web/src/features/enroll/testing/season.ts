// The demo chain's season (demo/chain.json, docs/catalogue.md `seasons`) as GET /enroll/2 answers it.
import type { EnrollSeason } from '../../../lib/api/enroll';
import { makeSeasonPresentation } from '../../../test/fixtures';

/** The demo season (docs/catalogue.md `seasons`): 901 and 902 required, 903 optional. */
export function demoSeason(extra: Partial<EnrollSeason> = {}): EnrollSeason {
  const presentation = makeSeasonPresentation;
  const detail = {
    '10': {
      '1001': { IsPriceOverride: true, Price: 3000, MembershipPayableAmount: 1500 },
      '1002': { IsPriceOverride: false, Price: 2900, MembershipPayableAmount: 1500 },
    },
  };
  return {
    SeasonId: 1,
    MembershipId: 2,
    Name: 'עונת הבכורות של הקולנוע הישראלי',
    NameEn: 'Israeli Cinema Premieres – winter season',
    Description: 'תיאור',
    DescriptionEn: 'About the season',
    IsSkipMemberSeat: false,
    IsPricingPerTicket: true,
    DefaultTicketGroupId: 10,
    TicketGroups: [
      {
        id: 10,
        name: 'מנוי עונה',
        nameEn: 'Season',
        tickets: [
          { id: 1001, name: 'מנוי עונה', nameEn: 'Season member', price: 3500 },
          {
            id: 1002,
            name: 'מנוי עונה – אזרח ותיק',
            nameEn: 'Season member – senior',
            price: 2900,
          },
        ],
      },
    ],
    Presentations: [
      presentation(901, 12, true),
      presentation(902, 19, true),
      presentation(903, 26, false),
    ],
    PresentationDetail: { '901': detail, '902': detail, '903': detail },
    venueId: 6,
    seatplanId: 6,
    ...extra,
  };
}
