import { describe, expect, it } from 'vitest';
import { enabledMethods, rememberReturnTo, safeReturnTo, takeReturnTo } from './api';

describe('the login methods', () => {
  it('come from the site config, the configured first method first', () => {
    expect(
      enabledMethods({
        customerAreaLoginMethod: 'byEmailAndPassword',
        customerLoginMethods: ['byPhone', 'byEmailAndPassword', 'nonsense'],
      }),
    ).toEqual(['byEmailAndPassword', 'byPhone']);
  });

  it('fall back to every method, and to the phone when the list is empty', () => {
    expect(enabledMethods(null)[0]).toBe('byPhone');
    expect(enabledMethods({ customerLoginMethods: [] })).toEqual(['byPhone']);
  });
});

describe('returnTo', () => {
  it('follows only paths of this site', () => {
    expect(safeReturnTo('/reservation/abc')).toBe('/reservation/abc');
    expect(safeReturnTo('//evil.example/x')).toBe('/customer-area');
    expect(safeReturnTo('https://evil.example')).toBe('/customer-area');
    expect(safeReturnTo('/\\evil.example')).toBe('/customer-area');
    expect(safeReturnTo(null)).toBe('/customer-area');
  });
});

describe('the way back kept for a registration link', () => {
  it('is taken once, by the link opened within a day', () => {
    localStorage.clear();
    rememberReturnTo('/system-vouchers?choice=2:21*1&step=checkout', 1_000);
    expect(takeReturnTo(2_000)).toBe('/system-vouchers?choice=2:21*1&step=checkout');
    expect(takeReturnTo(3_000)).toBe('/customer-area');
  });

  it('is not kept when it leaves the site, nor after a day', () => {
    localStorage.clear();
    rememberReturnTo('//evil.example/x', 1_000);
    expect(takeReturnTo(2_000)).toBe('/customer-area');
    rememberReturnTo('/system-vouchers', 0);
    expect(takeReturnTo(25 * 60 * 60 * 1000)).toBe('/customer-area');
  });
});
