import 'i18next';
import type he from '../../locales/he.json';

// Keys are checked against the Hebrew catalogue, the product's base language.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof he };
    returnNull: false;
  }
}
