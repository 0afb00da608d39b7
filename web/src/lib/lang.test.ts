import { describe, expect, it } from 'vitest';
import { isStaffPath, resolveLanguage } from './lang';

describe('the page language', () => {
  const enabled = ['he', 'en', 'ru', 'ar'];

  it('is any enabled language on a buyer’s page, and a 404 for others', () => {
    expect(resolveLanguage('ru', enabled, 'he')).toEqual({
      lang: 'ru',
      requested: 'ru',
      valid: true,
    });
    expect(resolveLanguage('ar', enabled, 'he').lang).toBe('ar');
    expect(resolveLanguage('pl', enabled, 'he').valid).toBe(false);
    expect(resolveLanguage(null, enabled, 'he').lang).toBe('he');
  });

  it('is he or en on the staff screens: another enabled language shows them in English', () => {
    expect(isStaffPath('/PRES-live')).toBe(true);
    expect(isStaffPath('/PRES-live/door')).toBe(true);
    expect(isStaffPath('/order/1')).toBe(false);
    expect(resolveLanguage('ru', enabled, 'he', true)).toEqual({
      lang: 'en',
      requested: 'ru',
      valid: true,
    });
    expect(resolveLanguage('he', enabled, 'he', true).lang).toBe('he');
    expect(resolveLanguage(null, enabled, 'ar', true).lang).toBe('en');
  });
});
