// The site configuration (GET /api/config): loaded once before the router is built, then read
// anywhere through useConfig().
import { createContext, useContext } from 'react';
import { queryOptions } from '@tanstack/react-query';
import { fetchConfig } from './api/client';
import type { SiteConfig } from './api/types';
import {
  DEFAULT_LANGUAGE,
  FALLBACK_LANGUAGE,
  LANGUAGE_CODES,
  isLanguageCode,
} from './i18n/languages';
import { CINEMA_TIME_ZONE } from './format';

export interface AppConfig {
  raw: Partial<SiteConfig> | null;
  locale: {
    default: string;
    enabled: string[];
    supported: string[];
    timeZone: string;
  };
  routes: {
    vod: string;
    systemVouchers: string;
    memberships: string;
    miniSite: string;
  };
  redirectAllowList: string[];
  testMode: boolean;
  /** Tenant wording per enabled locale: flat key → text (decision 0054). */
  wording: Record<string, Record<string, string>>;
  /** Areas a buyer may be sent to: video on demand's "Watch now" (decision 0053). */
  areas: { vod: boolean };
  /**
   * The payment methods the server's providers take, each in its currencies (none: every one);
   * null from a server that does not say, which offers them all (issue 20).
   */
  paymentMethods: MethodOffer[] | null;
}

export interface MethodOffer {
  method: string;
  currencies?: string[];
}

function methodOffers(value: unknown): MethodOffer[] | null {
  if (!Array.isArray(value)) return null;
  return value.flatMap((v: unknown) => {
    if (typeof v !== 'object' || v === null) return [];
    const { method, currencies } = v as { method?: unknown; currencies?: unknown };
    if (typeof method !== 'string') return [];
    const list = stringList(currencies);
    return [list ? { method, currencies: list } : { method }];
  });
}

export const DEFAULT_ROUTES: AppConfig['routes'] = {
  vod: '/vod',
  systemVouchers: '/system-vouchers',
  memberships: '/memberships',
  miniSite: '/mini-site',
};

function stringList(value: unknown): string[] | null {
  return Array.isArray(value) && value.every((v) => typeof v === 'string') ? value : null;
}

function routePath(value: unknown, fallback: string): string {
  if (typeof value !== 'string' || !value.startsWith('/') || value.includes('?')) return fallback;
  return value.length > 1 ? value.replace(/\/+$/, '') : value;
}

/** The wording the server sent, for enabled locales, strings only. */
function wordingOf(value: unknown, enabled: string[]): AppConfig['wording'] {
  const out: AppConfig['wording'] = {};
  if (typeof value !== 'object' || value === null) return out;
  for (const [code, texts] of Object.entries(value as Record<string, unknown>)) {
    if (!enabled.includes(code) || typeof texts !== 'object' || texts === null) continue;
    out[code] = Object.fromEntries(
      Object.entries(texts as Record<string, unknown>).filter(
        (e): e is [string, string] => typeof e[1] === 'string',
      ),
    );
  }
  return out;
}

/** Fills what the server left out with the product defaults, and drops what we cannot use. */
export function normalizeConfig(raw: Partial<SiteConfig> | null | undefined): AppConfig {
  const locale = (raw?.locale ?? {}) as Partial<SiteConfig['locale']>;
  const supported: string[] = (stringList(locale.supported) ?? [...LANGUAGE_CODES]).filter(
    isLanguageCode,
  );
  const enabled = (stringList(locale.enabled) ?? [DEFAULT_LANGUAGE, FALLBACK_LANGUAGE]).filter(
    (c) => supported.includes(c),
  );
  const defaultLanguage =
    typeof locale.default === 'string' && enabled.includes(locale.default)
      ? locale.default
      : (enabled[0] ?? DEFAULT_LANGUAGE);
  const routes = (raw?.routes ?? {}) as Partial<SiteConfig['routes']>;

  return {
    raw: raw ?? null,
    locale: {
      default: defaultLanguage,
      enabled: enabled.length > 0 ? enabled : [DEFAULT_LANGUAGE],
      supported,
      timeZone: typeof locale.timeZone === 'string' ? locale.timeZone : CINEMA_TIME_ZONE,
    },
    routes: {
      vod: routePath(routes.vod, DEFAULT_ROUTES.vod),
      systemVouchers: routePath(routes.systemVouchers, DEFAULT_ROUTES.systemVouchers),
      memberships: routePath(routes.memberships, DEFAULT_ROUTES.memberships),
      miniSite: routePath(routes.miniSite, DEFAULT_ROUTES.miniSite),
    },
    redirectAllowList: (stringList(raw?.redirectAllowList) ?? []).map((h) => h.toLowerCase()),
    testMode: raw?.testMode === true,
    wording: wordingOf(raw?.wording, enabled),
    areas: { vod: true },
    paymentMethods: methodOffers(raw?.paymentMethods),
  };
}

/** The one owner of the ['config'] query key. */
export const configQuery = queryOptions({
  queryKey: ['config'] as const,
  queryFn: ({ signal }) => fetchConfig(signal),
  staleTime: Infinity,
});

/** Provided by the app once the configuration is loaded: `<ConfigContext value={config}>`. */
export const ConfigContext = createContext<AppConfig | null>(null);

export function useConfig(): AppConfig {
  const config = useContext(ConfigContext);
  if (!config) throw new Error('useConfig() outside <ConfigContext>');
  return config;
}
