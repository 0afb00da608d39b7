import { describe, expect, it } from 'vitest';
import { chosenVouchers, decodeChoice, encodeChoice } from './choice';
import type { VoucherClass } from '../../lib/api/gifts';

const giftCard = {
  id: 2,
  name: 'כרטיס מתנה',
  nameEn: 'Gift card',
  prices: [
    { id: 21, price: 5000 },
    { id: 22, price: 10000 },
  ],
  openPrice: { min: 3000, max: 50000 },
  boxOfficeOnly: false,
} as unknown as VoucherClass;
const boxOffice = { ...giftCard, id: 4, boxOfficeOnly: true } as VoucherClass;

describe('chosenVouchers', () => {
  it('adds up the prices chosen and the open amount into the spec lines', () => {
    const c = chosenVouchers(
      [giftCard],
      { quantities: { '2:22': 2, '2:open': 1 }, amounts: { 2: '150' } },
      10,
    );
    expect(c.ok).toBe(true);
    expect(c.total).toBe(35000);
    expect(c.count).toBe(3);
    expect(c.lines).toEqual([
      {
        SystemVoucherId: 2,
        Prices: [
          { SystemVoucherPriceId: 22, selectedQuantity: 2 },
          { Price: 15000, selectedQuantity: 1 },
        ],
      },
    ]);
  });

  it('says nothing is chosen, an open amount is out of bounds, or there are too many', () => {
    expect(chosenVouchers([giftCard], { quantities: {}, amounts: {} }, 10)).toMatchObject({
      ok: false,
      problem: null,
    });
    for (const amount of ['', '29', '501', '45.5']) {
      const c = chosenVouchers(
        [giftCard],
        { quantities: { '2:open': 1 }, amounts: { 2: amount } },
        10,
      );
      expect([amount, c.problem]).toEqual([amount, 'openAmount']);
    }
    const many = chosenVouchers([giftCard], { quantities: { '2:21': 11 }, amounts: {} }, 10);
    expect(many.problem).toBe('tooMany');
  });

  it('never sells a box-office-only class online', () => {
    const c = chosenVouchers([boxOffice], { quantities: { '4:21': 1 }, amounts: {} }, 10);
    expect(c.ok).toBe(false);
    expect(c.lines).toEqual([]);
  });
});

describe('the choice in the address', () => {
  it('comes back as it was chosen, open amount included', () => {
    const choice = { quantities: { '2:22': 2, '2:21': 0, '2:open': 1 }, amounts: { 2: '150' } };
    const text = encodeChoice(choice);
    expect(text).toBe('2:22*2,2:open*1*150');
    expect(decodeChoice(text)).toEqual({
      quantities: { '2:22': 2, '2:open': 1 },
      amounts: { 2: '150' },
    });
  });

  it('leaves out what it cannot read', () => {
    expect(decodeChoice('2:22*x,junk,3:4*0,1:11*1')).toEqual({
      quantities: { '1:11': 1 },
      amounts: {},
    });
    expect(decodeChoice(null)).toEqual({ quantities: {}, amounts: {} });
  });
});
