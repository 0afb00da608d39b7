import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import he from '../../locales/he.json';
import en from '../../locales/en.json';
import {
  DEFAULT_LANGUAGE,
  FALLBACK_LANGUAGE,
  LANGUAGE_CODES,
  isLanguageCode,
  type LanguageCode,
} from './languages';

// he (the default) and en (the fallback) ship in the main bundle; the other catalogues are
// fetched the first time someone picks them.
const lazyCatalogues = import.meta.glob<Record<string, unknown>>(
  ['../../locales/*.json', '!../../locales/he.json', '!../../locales/en.json'],
  { import: 'default' },
);

function catalogueLoader(code: string) {
  return lazyCatalogues[`../../locales/${code}.json`];
}

/** The language to start in before the configuration is known: the URL's, when we have it. */
export function initialLanguage(search: string = globalThis.location?.search ?? ''): LanguageCode {
  const requested = new URLSearchParams(search).get('lang');
  return requested === 'he' || requested === 'en' ? requested : DEFAULT_LANGUAGE;
}

void i18n.use(initReactI18next).init({
  resources: { he: { translation: he }, en: { translation: en } },
  lng: initialLanguage(),
  fallbackLng: FALLBACK_LANGUAGE,
  supportedLngs: [...LANGUAGE_CODES],
  interpolation: { escapeValue: false },
  returnNull: false,
  initAsync: false,
});

/** Loads a catalogue if needed, then switches to it. */
export async function changeLanguage(code: string): Promise<void> {
  if (!isLanguageCode(code)) throw new Error(`Unknown language: ${code}`);
  if (!i18n.hasResourceBundle(code, 'translation')) {
    const load = catalogueLoader(code);
    if (load) i18n.addResourceBundle(code, 'translation', await load(), true, true);
  }
  if (i18n.language !== code) await i18n.changeLanguage(code);
}

export default i18n;
