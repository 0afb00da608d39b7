import { describe, expect, it } from 'vitest';
import { chosenExtras, decodeExtras, encodeExtras } from './extras';
import type { GiftProduct } from '../../lib/api/gifts';

const popcorn = {
  id: 3,
  name: 'פופקורן גדול',
  nameEn: 'Large popcorn',
  price: 2900,
} as GiftProduct;
const water = { id: 7, name: 'מים מינרליים', nameEn: 'Mineral water', price: 1000 } as GiftProduct;

describe('the extras of a voucher order', () => {
  it('come back from the address as chosen, nothing chosen left out', () => {
    expect(encodeExtras({ 3: 2, 7: 0, 9: 1 })).toBe('3*2,9*1');
    expect(decodeExtras('3*2,9*1')).toEqual({ 3: 2, 9: 1 });
    expect(decodeExtras('3*x,4*0,5*21,junk,7*1')).toEqual({ 7: 1 });
    expect(decodeExtras(null)).toEqual({});
  });

  it('are priced from what is offered, an id no longer offered left out', () => {
    const c = chosenExtras([popcorn, water], { 3: 2, 7: 1, 99: 4 });
    expect(c.total).toBe(2 * 2900 + 1000);
    expect(c.lines).toEqual([
      { id: 3, quantity: 2 },
      { id: 7, quantity: 1 },
    ]);
    expect(c.summary.map((s) => s.nameEn)).toEqual(['Large popcorn', 'Mineral water']);
  });
});
