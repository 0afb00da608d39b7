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

/** Locale → flat key (`whatsOn.title`) → the tenant's own words (GET /config `wording`). */
export type Wording = Record<string, Record<string, string>>;

let wording: Wording = {};

/** `{"a.b": "x"}` → `{a: {b: "x"}}`, the shape i18next's bundles have. */
export function unflatten(flat: Record<string, string>): Record<string, unknown> {
  const tree: Record<string, unknown> = {};
  for (const [key, text] of Object.entries(flat)) {
    const path = key.split('.');
    let node = tree;
    for (const part of path.slice(0, -1)) {
      const next = node[part];
      node = (typeof next === 'object' && next !== null ? next : (node[part] = {})) as Record<
        string,
        unknown
      >;
    }
    node[path[path.length - 1]] = text;
  }
  return tree;
}

function applyWording(code: string): void {
  const texts = wording[code];
  if (texts && Object.keys(texts).length > 0) {
    i18n.addResourceBundle(code, 'translation', unflatten(texts), true, true);
  }
}

/**
 * Lays the tenant's words over the bundled catalogues (decision 0054): now for the catalogues
 * already loaded, and for the others when they load.
 */
export function setWording(next: Wording): void {
  wording = next;
  for (const code of Object.keys(next)) {
    if (i18n.hasResourceBundle(code, 'translation')) applyWording(code);
  }
}

/** Loads a catalogue if needed, then switches to it. */
export async function changeLanguage(code: string): Promise<void> {
  if (!isLanguageCode(code)) throw new Error(`Unknown language: ${code}`);
  if (!i18n.hasResourceBundle(code, 'translation')) {
    const load = catalogueLoader(code);
    if (load) {
      i18n.addResourceBundle(code, 'translation', await load(), true, true);
      applyWording(code);
    }
  }
  if (i18n.language !== code) await i18n.changeLanguage(code);
}

export default i18n;
