import { describe, expect, it } from 'vitest';
import type { Presentation } from '../../../lib/api/types';
import { bookable, byDay, quickOrderChoices } from './schedule';

function p(id: number, over: Partial<Presentation>): Presentation {
  return {
    id,
    featureId: 1,
    locationId: 2,
    dateTime: '2030-06-12T17:00:00Z',
    isVod: false,
    saleState: 'onSale',
    ...over,
  } as Presentation;
}

const list = [
  p(1, { dateTime: '2030-06-12T17:00:00Z' }),
  // 23:30 UTC is already the next day in Jerusalem.
  p(2, { dateTime: '2030-06-12T21:30:00Z' }),
  p(3, { featureId: 2, dateTime: '2030-06-12T15:00:00Z' }),
  p(4, { locationId: 3, dateTime: '2030-06-13T15:00:00Z' }),
  p(5, { isVod: true }),
  p(6, { saleState: 'ended' }),
];

describe('the schedule of the marketing pages', () => {
  it('leaves out video on demand and ended sales, in start order', () => {
    expect(bookable(list).map((x) => x.id)).toEqual([3, 1, 2, 4]);
  });

  it('groups by the day in Jerusalem', () => {
    expect(byDay(bookable(list)).map((d) => [d.date, d.presentations.map((x) => x.id)])).toEqual([
      ['2030-06-12', [3, 1]],
      ['2030-06-13', [2, 4]],
    ]);
  });

  it('offers each quick order step only what the earlier picks allow', () => {
    expect(quickOrderChoices(list, {}).complexes.map((x) => x.locationId)).toEqual([2, 3]);
    expect(quickOrderChoices(list, {}).features).toEqual([]);
    const c = quickOrderChoices(list, { locationId: 2, featureId: 1, date: '2030-06-13' });
    expect(c.features.map((x) => x.featureId)).toEqual([2, 1]);
    expect(c.dates).toEqual(['2030-06-12', '2030-06-13']);
    expect(c.times.map((x) => x.id)).toEqual([2]);
  });
});
