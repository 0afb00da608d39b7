import { describe, expect, it } from 'vitest';
import type { PriceChange } from './api';
import { changesOf, chargeParts, parsePercent, parseShekels } from './pricesModel';

describe('the prices panel', () => {
  it('reads shekels as agorot and refuses what is not a price', () => {
    expect(parseShekels('47')).toBe(4700);
    expect(parseShekels('47.5')).toBe(4750);
    expect(parseShekels('47,05')).toBe(4705);
    expect(parseShekels(' 0 ')).toBe(0);
    for (const bad of ['', '-1', '4.755', 'abc', '1e3']) expect(parseShekels(bad), bad).toBeNull();
  });

  it('reads a percentage as basis points, at most 100', () => {
    expect(parsePercent('10')).toBe(1000);
    expect(parsePercent('2.5')).toBe(250);
    expect(parsePercent('100')).toBe(10_000);
    expect(parsePercent('101')).toBeNull();
  });

  it('says a service charge by its kind', () => {
    const money = (a: number) => `₪${(a / 100).toFixed(2)}`;
    expect(chargeParts({ amount: 500, percentBp: null, perTicket: true }, money)).toEqual({
      value: '₪5.00',
      perTicket: true,
    });
    expect(chargeParts({ amount: null, percentBp: 1250, perTicket: false }, money)).toEqual({
      value: '12.5%',
      perTicket: false,
    });
  });

  it('lists one ticket’s changes by day', () => {
    const c = (id: number, ticketId: number | null, effectiveFrom: string): PriceChange => ({
      id,
      businessId: 1,
      effectiveFrom,
      ticketId,
      price: 100,
      createdAt: '2026-11-27T08:00:00Z',
      staffUserId: 1,
    });
    const all = [c(1, 101, '2026-12-20'), c(2, 102, '2026-12-01'), c(3, 101, '2026-12-05')];
    expect(changesOf(all, 101).map((x) => x.id)).toEqual([3, 1]);
  });
});
