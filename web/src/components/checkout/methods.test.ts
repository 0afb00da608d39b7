import { describe, expect, it } from 'vitest';
import { chosenAmong, offeredMethods } from './methods';
import { normalizeConfig } from '../../lib/config';

describe('offeredMethods', () => {
  const payu = [
    { method: 'card' },
    { method: 'savedCard' },
    { method: 'paypal', currencies: ['ILS', 'PLN'] },
    { method: 'blik', currencies: ['PLN'] },
    { method: 'payu', currencies: ['PLN'] },
  ];

  it('offers PayU and Blik only for an order in złoty', () => {
    expect(offeredMethods(payu, 'ILS')).toEqual(['card', 'savedCard', 'paypal']);
    expect(offeredMethods(payu, 'PLN')).toEqual(['card', 'savedCard', 'paypal', 'blik', 'payu']);
    expect(offeredMethods(payu, 'EUR')).toEqual(['card', 'savedCard']);
  });

  it('offers only what the server lists (CardCom alone: cards), in the order asked', () => {
    const cardcom = [{ method: 'card' }, { method: 'savedCard' }];
    expect(offeredMethods(cardcom, 'ILS')).toEqual(['card', 'savedCard']);
    expect(offeredMethods(cardcom, 'ILS', ['paypal', 'card'])).toEqual(['card']);
  });

  it('offers everything asked for when the server says nothing', () => {
    expect(offeredMethods(null, 'ILS', ['card', 'blik'])).toEqual(['card', 'blik']);
  });

  it('keeps a method listed for some currency while the currency is not known', () => {
    expect(offeredMethods(payu, undefined)).toEqual([
      'card',
      'savedCard',
      'paypal',
      'blik',
      'payu',
    ]);
  });

  it('reads the list from the configuration, dropping what it cannot use', () => {
    const config = normalizeConfig({
      paymentMethods: [{ method: 'card' }, { method: 'blik', currencies: ['PLN'] }, { nope: 1 }],
    } as never);
    expect(config.paymentMethods).toEqual([
      { method: 'card' },
      { method: 'blik', currencies: ['PLN'] },
    ]);
    expect(normalizeConfig(null).paymentMethods).toBeNull();
  });

  it('falls back to the first offered method when the chosen one is not offered', () => {
    expect(chosenAmong('blik', ['card', 'paypal'])).toBe('card');
    expect(chosenAmong('paypal', ['card', 'paypal'])).toBe('paypal');
  });
});
