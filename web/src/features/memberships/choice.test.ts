import { describe, expect, it } from 'vitest';
import type { Membership } from '../../lib/api/memberships';
import {
  TOP_UP_MAX,
  chosenMemberships,
  decodeChoice,
  encodeChoice,
  encodeReferences,
  referenceProblem,
} from './choice';

const price = (id: number, amount: number, code = 'ILS') => ({
  MembershipPriceId: id,
  PriceCode: `P${id}`,
  Price: amount,
  value: amount,
  currency: { CurrencyId: code === 'ILS' ? 1 : 2, CurrencySymbol: '', CurrencyCode: code },
  references: [],
});

const m = (id: number, prices: ReturnType<typeof price>[], extra: Partial<Membership> = {}) =>
  ({
    MembershipId: id,
    MembershipTypeId: 2,
    Name: `מנוי ${id}`,
    NameEn: `Membership ${id}`,
    Code: '',
    ClassName: '',
    Description: '',
    DescriptionEn: '',
    prices,
    validMonths: 12,
    topUp: true,
    terms: null,
    ...extra,
  }) as Membership;

describe('a membership choice', () => {
  it('keeps the quantities and the answers through the address, dropping what it cannot read', () => {
    const choice = {
      quantities: { '2:201': 1, '3:300': 1, '1:100': 0 },
      references: { '3:300': { reference1: '12,34*5' }, '1:100': { reference1: 'x' } },
    };
    expect(encodeChoice(choice)).toBe('2:201*1,3:300*1');
    const refs = encodeReferences(choice);
    expect(JSON.parse(refs)).toEqual({ '3:300': { reference1: '12,34*5' } });
    expect(decodeChoice('2:201*1,3:300*1,bad,4:1*0', refs)).toEqual({
      quantities: { '2:201': 1, '3:300': 1 },
      references: { '3:300': { reference1: '12,34*5' } },
    });
    expect(decodeChoice(null, '{not json')).toEqual({ quantities: {}, references: {} });
  });

  it('refuses more than the maximum of one membership, and two currencies', () => {
    const ms = [m(1, [price(11, 100), price(12, 200)]), m(2, [price(21, 300, 'USD')])];
    const two = chosenMemberships(
      ms,
      { quantities: { '1:11': 1, '1:12': 1 }, references: {} },
      1,
      null,
    );
    expect(two.problem).toBe('tooMany');
    const mixed = chosenMemberships(
      ms,
      { quantities: { '1:11': 1, '2:21': 1 }, references: {} },
      1,
      null,
    );
    expect(mixed.problem).toBe('currencies');
    const fine = chosenMemberships(ms, { quantities: { '1:12': 1 }, references: {} }, 1, null);
    expect(fine).toMatchObject({ ok: true, total: 200, count: 1 });
    expect(fine.lines).toEqual([
      { MembershipId: 1, prices: [{ MembershipPriceId: 12, selectedQuantity: 1 }] },
    ]);
  });

  it('counts top-ups apart, up to their own cap, and only of memberships that can be topped up', () => {
    const ms = [m(1, [price(11, 100)]), m(2, [price(21, 300)], { topUp: false })];
    const choice = { quantities: { '1:11': TOP_UP_MAX, '2:21': 1 }, references: {} };
    const ok = chosenMemberships(ms, choice, 1, '555');
    expect(ok.ok).toBe(true);
    expect(ok.lines).toEqual([
      {
        MembershipId: 1,
        prices: [],
        topups: { '555': [{ MembershipPriceId: 11, selectedQuantity: TOP_UP_MAX }] },
      },
    ]);
    const over = chosenMemberships(
      ms,
      { quantities: { '1:11': TOP_UP_MAX + 1 }, references: {} },
      1,
      '555',
    );
    expect(over.problem).toBe('tooMany');
  });

  it('checks an answer as its pattern says, leaving a pattern it cannot read to the server', () => {
    const r = { key: 'reference1' as const, label: '', labelEn: '', pattern: '^[0-9]{5,10}$' };
    expect(referenceProblem(r, '  ')).toBe('required');
    expect(referenceProblem(r, '1234')).toBe('pattern');
    expect(referenceProblem(r, '12345')).toBeNull();
    expect(referenceProblem({ ...r, pattern: null }, 'anything')).toBeNull();
    expect(referenceProblem({ ...r, pattern: '(?<' }, 'anything')).toBeNull();
  });
});
