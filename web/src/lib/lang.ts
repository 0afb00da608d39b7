// The interface language lives in the URL (?lang=xx) so links, reloads and shared addresses
// keep it. These hooks read it and carry it over to in-app links.
import { useLocation, useSearchParams } from 'react-router';
import { useConfig } from './config';
import { FALLBACK_LANGUAGE, STAFF_LANGUAGES } from './i18n/languages';

/** The staff screens (live monitoring, reports, the door) live under /PRES-live. */
export function isStaffPath(pathname: string): boolean {
  return pathname === '/PRES-live' || pathname.startsWith('/PRES-live/');
}

export interface PageLanguage {
  /** The language the page is shown in. */
  lang: string;
  /** The ?lang value as written, or null when absent. */
  requested: string | null;
  /** False when ?lang names a language this site does not offer: the page is a 404. */
  valid: boolean;
}

export function resolveLanguage(
  requested: string | null,
  enabled: readonly string[],
  defaultLanguage: string,
  staff = false,
): PageLanguage {
  // The staff screens are written in he and en only: another language shows them in English.
  const shown = (lang: string) =>
    staff && !STAFF_LANGUAGES.includes(lang) ? FALLBACK_LANGUAGE : lang;
  // An empty ?lang= is a language we do not offer, as the server (which answers 404) sees it.
  if (requested === null) return { lang: shown(defaultLanguage), requested: null, valid: true };
  if (enabled.includes(requested)) return { lang: shown(requested), requested, valid: true };
  return { lang: 'en', requested, valid: false };
}

export function usePageLanguage(): PageLanguage {
  const [params] = useSearchParams();
  const { pathname } = useLocation();
  const { locale } = useConfig();
  return resolveLanguage(params.get('lang'), locale.enabled, locale.default, isStaffPath(pathname));
}

/** Adds the current ?lang to an in-app address (unless the address sets its own). */
export function withLang(to: string, lang: string | null): string {
  if (!lang) return to;
  const url = new URL(to, 'http://kupa.invalid');
  if (!url.searchParams.has('lang')) url.searchParams.set('lang', lang);
  return `${url.pathname}${url.search}${url.hash}`;
}

export function useLangHref(to: string): string {
  const [params] = useSearchParams();
  return withLang(to, params.get('lang'));
}

/** The current address with ?lang replaced: what a language switcher links to. */
export function useSwitchLanguageHref(): (lang: string) => string {
  const location = useLocation();
  return (lang: string) => {
    const params = new URLSearchParams(location.search);
    params.set('lang', lang);
    return `${location.pathname}?${params.toString()}${location.hash}`;
  };
}
