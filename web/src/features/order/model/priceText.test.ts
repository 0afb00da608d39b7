import { describe, expect, it } from 'vitest';
import i18n from '../../../lib/i18n';
import type { PriceBreakdown, ServiceCharge } from '../../../lib/api/types';
import { breakdownLines, perOrderChargeText, priceText, withProducts } from './priceText';

// The bidi marks Intl puts around the shekel sign in Hebrew, and its no-break spaces.
const plain = (s: string | null) =>
  s?.replace(/[\u200e\u200f\u061c]/g, '').replace(/\u00a0/g, ' ') ?? null;
const en = i18n.getFixedT('en');
const he = i18n.getFixedT('he');
const ILS = { currency: 'ILS' };

describe('a ticket’s price', () => {
  it('is shown at its full price with the service charge it includes, in en', () => {
    expect(priceText(en, 'en', { price: 4200, serviceCharge: 500 }, ILS)).toEqual({
      full: '₪47.00',
      included: 'incl. ₪5.00 service charge',
    });
  });

  it("names the business's charge in Hebrew, and the translated name in English", () => {
    const named = { ...ILS, chargeName: 'עמלת הזמנה' };
    const text = priceText(he, 'he', { price: 4200, serviceCharge: 500 }, named);
    expect(plain(text.full)).toBe('47.00 ₪');
    expect(plain(text.included)).toBe('כולל עמלת הזמנה 5.00 ₪');
    expect(plain(priceText(he, 'he', { price: 0, serviceCharge: 500 }, ILS).included)).toBe(
      'כולל דמי טיפול 5.00 ₪',
    );
    expect(priceText(en, 'en', { price: 4200, serviceCharge: 500 }, named).included).toBe(
      'incl. ₪5.00 service charge',
    );
  });

  it('says nothing of a service charge when there is none', () => {
    expect(priceText(en, 'en', { price: 4200, serviceCharge: 0 }, ILS)).toEqual({
      full: '₪42.00',
      included: null,
    });
  });
});

describe('an order summary', () => {
  const perTicket: PriceBreakdown = {
    tickets: 9400,
    ticketsServiceCharge: 1000,
    orderServiceCharge: 0,
    products: 1800,
    total: 11200,
  };

  it('shows the tickets at full prices, of which the service charge, then products and total', () => {
    expect(breakdownLines(en, 'en', perTicket, ILS)).toEqual([
      {
        id: 'tickets',
        label: 'Tickets',
        amount: '₪94.00',
        note: 'of which service charge ₪10.00',
      },
      { id: 'products', label: 'Extras', amount: '₪18.00', note: null },
      { id: 'total', label: 'Total', amount: '₪112.00', note: null },
    ]);
    const hebrew = breakdownLines(he, 'he', perTicket, { ...ILS, chargeName: 'דמי טיפול' });
    expect(hebrew.map((l) => [l.label, plain(l.amount), plain(l.note)])).toEqual([
      ['כרטיסים', '94.00 ₪', 'מתוכם דמי טיפול 10.00 ₪'],
      ['תוספות', '18.00 ₪', null],
      ['סה״כ', '112.00 ₪', null],
    ]);
  });

  it('puts a per-order service charge on its own line, and no products line without products', () => {
    const perOrder: PriceBreakdown = {
      tickets: 7600,
      ticketsServiceCharge: 0,
      orderServiceCharge: 760,
      products: 0,
      total: 8360,
    };
    expect(breakdownLines(en, 'en', perOrder, ILS)).toEqual([
      { id: 'tickets', label: 'Tickets', amount: '₪76.00', note: null },
      {
        id: 'orderServiceCharge',
        label: 'Service charge per order',
        amount: '₪7.60',
        note: null,
      },
      { id: 'total', label: 'Total', amount: '₪83.60', note: null },
    ]);
  });

  it('adds the products being chosen to the server’s breakdown', () => {
    const cart: PriceBreakdown = { ...perTicket, products: 0, total: 9400 };
    expect(withProducts(cart, 3600)).toEqual({ ...perTicket, products: 3600, total: 13000 });
  });
});

describe('a per-order service charge on the tickets step', () => {
  const charge: ServiceCharge = {
    name: 'דמי טיפול',
    nameEn: 'Service charge',
    currency: 'ILS',
    perTicket: false,
    amount: 1000,
    percentBp: null,
  };

  it('is announced with its amount or its percentage', () => {
    expect(perOrderChargeText(en, 'en', charge)).toBe('+ service charge per order: ₪10.00');
    expect(perOrderChargeText(en, 'en', { ...charge, amount: null, percentBp: 1000 })).toBe(
      '+ service charge per order: 10% of the tickets’ price',
    );
    expect(plain(perOrderChargeText(he, 'he', charge))).toBe('בתוספת דמי טיפול להזמנה: 10.00 ₪');
  });

  it('is not announced when the charge is per ticket (each price already holds it)', () => {
    expect(perOrderChargeText(en, 'en', { ...charge, perTicket: true })).toBeNull();
    expect(perOrderChargeText(en, 'en', null)).toBeNull();
  });
});
