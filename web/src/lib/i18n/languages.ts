// The interface languages: which exist, their own names, and which read right to left.

export const LANGUAGES = [
  { code: 'he', nativeName: 'עברית', rtl: true },
  { code: 'en', nativeName: 'English', rtl: false },
  { code: 'ru', nativeName: 'Русский', rtl: false },
  { code: 'ar', nativeName: 'العربية', rtl: true },
  { code: 'pl', nativeName: 'Polski', rtl: false },
  { code: 'sk', nativeName: 'Slovenčina', rtl: false },
  { code: 'ro', nativeName: 'Română', rtl: false },
  { code: 'bg', nativeName: 'Български', rtl: false },
  { code: 'cs', nativeName: 'Čeština', rtl: false },
  { code: 'hu', nativeName: 'Magyar', rtl: false },
] as const;

export type LanguageCode = (typeof LANGUAGES)[number]['code'];

export const LANGUAGE_CODES: readonly LanguageCode[] = LANGUAGES.map((l) => l.code);

/** Used when the configuration cannot be loaded, and for a page asked in a language we refuse. */
export const DEFAULT_LANGUAGE: LanguageCode = 'he';
export const FALLBACK_LANGUAGE: LanguageCode = 'en';

export function isLanguageCode(value: string | null | undefined): value is LanguageCode {
  return !!value && (LANGUAGE_CODES as readonly string[]).includes(value);
}

export function isRtl(code: string): boolean {
  return LANGUAGES.some((l) => l.code === code && l.rtl);
}

export function nativeName(code: string): string {
  return LANGUAGES.find((l) => l.code === code)?.nativeName ?? code;
}

/** Sets `<html lang dir>` so the whole page, scrollbars included, flows the right way. */
export function applyDocumentLanguage(code: string): void {
  const root = document.documentElement;
  root.lang = code;
  root.dir = isRtl(code) ? 'rtl' : 'ltr';
}

/** The staff screens (live monitoring, reports, the door) are written in these only. */
export const STAFF_LANGUAGES: readonly string[] = ['he', 'en'];

/** The catalogue's top-level namespaces of the staff screens: he and en only. */
export const STAFF_NAMESPACES: readonly string[] = [
  'staff',
  'staffCharts',
  'staffResend',
  'door',
  'staffReports',
  'staffProgramme',
  'staffFilms',
  'staffProducts',
  'staffSwitches',
  'staffAudit',
  'staffSeatPlans',
];
