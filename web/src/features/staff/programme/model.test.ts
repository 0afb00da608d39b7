import { describe, expect, it } from 'vitest';
import type { Screening } from './api';
import { cellKey, cells, localTime, weekDays } from './model';

function screening(id: number, venueId: number, startsAt: string): Screening {
  return {
    id,
    venueId,
    startsAt,
    endsAt: startsAt,
    feature: { id: 1, name: 'סרט', nameEn: 'Film', runtimeMinutes: 90 },
    locationId: 2,
    seatplanId: 1,
    businessId: 1,
    saleStartsAt: startsAt,
    saleEndsAt: startsAt,
    sold: 0,
    held: 0,
    closedChannels: [],
  };
}

describe('the programme grid', () => {
  it('lays a week out from its first day', () => {
    expect(weekDays('2026-12-31')).toEqual([
      '2026-12-31',
      '2027-01-01',
      '2027-01-02',
      '2027-01-03',
      '2027-01-04',
      '2027-01-05',
      '2027-01-06',
    ]);
  });

  it('puts a screening on its Jerusalem day, not its UTC one', () => {
    // 23:30 UTC on the 2nd is 01:30 on the 3rd in Jerusalem (winter, UTC+2).
    const late = screening(1, 4, '2026-12-02T23:30:00Z');
    const early = screening(2, 4, '2026-12-03T08:00:00Z');
    const grid = cells([early, late]);
    expect(grid.get(cellKey(4, '2026-12-02'))).toBeUndefined();
    expect(grid.get(cellKey(4, '2026-12-03'))?.map((s) => s.id)).toEqual([1, 2]);
    expect(localTime(late.startsAt)).toBe('01:30');
  });
});
