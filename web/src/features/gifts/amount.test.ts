import { describe, expect, it } from 'vitest';
import { donationAmount } from './amount';
import type { Donation } from '../../lib/api/gifts';

const fund = {
  id: 1,
  details: [
    { id: 11, amount: 1800, customAmount: false, min: 0, max: 0 },
    { id: 14, amount: 0, customAmount: true, min: 1000, max: 500000 },
  ],
} as unknown as Donation;

describe('donationAmount', () => {
  it('takes a fixed amount as it is', () => {
    expect(donationAmount(fund, { donationId: 1, detailId: 11 }, '999')).toMatchObject({
      ok: true,
      agorot: 1800,
    });
  });

  it('takes the donor amount in whole shekels within the bounds only', () => {
    const pick = { donationId: 1, detailId: 14 };
    expect(donationAmount(fund, pick, '72')).toMatchObject({ ok: true, agorot: 7200 });
    expect(donationAmount(fund, pick, '')).toMatchObject({ ok: false, problem: false });
    for (const typed of ['9', '5001']) {
      expect([typed, donationAmount(fund, pick, typed)]).toMatchObject([
        typed,
        { ok: false, problem: true },
      ]);
    }
  });

  it('is nothing until an amount is picked', () => {
    expect(donationAmount(fund, null, '50').ok).toBe(false);
  });
});
