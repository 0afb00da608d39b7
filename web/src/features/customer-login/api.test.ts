import { describe, expect, it } from 'vitest';
import { enabledMethods, safeReturnTo } from './api';

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
