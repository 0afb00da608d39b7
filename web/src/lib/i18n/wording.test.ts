import { afterEach, describe, expect, it } from 'vitest';
import i18n, { changeLanguage, setWording, unflatten } from './index';
import en from '../../locales/en.json';
import he from '../../locales/he.json';
import ru from '../../locales/ru.json';

describe('tenant wording', () => {
  afterEach(async () => {
    setWording({});
    // Put the bundled words back for the other tests.
    i18n.addResourceBundle('he', 'translation', he, true, true);
    i18n.addResourceBundle('en', 'translation', en, true, true);
    i18n.addResourceBundle('ru', 'translation', ru, true, true);
    await changeLanguage('he');
  });

  it('turns flat keys into the catalogue’s tree', () => {
    expect(unflatten({ 'a.b': 'x', 'a.c.d': 'y', e: 'z' })).toEqual({
      a: { b: 'x', c: { d: 'y' } },
      e: 'z',
    });
  });

  it('replaces the bundled words, and only the words it names', async () => {
    await changeLanguage('en');
    setWording({ en: { 'whatsOn.title': 'Now showing' } });
    expect(i18n.t('whatsOn.title')).toBe('Now showing');
    expect(i18n.t('whatsOn.buy')).toBe(en.whatsOn.buy);
  });

  it('reaches a catalogue loaded after it', async () => {
    i18n.removeResourceBundle('ru', 'translation');
    setWording({ ru: { 'whatsOn.title': 'Сейчас в кино' } });
    await changeLanguage('ru');
    expect(i18n.t('whatsOn.title')).toBe('Сейчас в кино');
  });
});
