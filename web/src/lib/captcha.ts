// The captcha token for protected calls (lock, unlock, seat plan, codes, vouchers, payment, mobile
// login). Test mode: the one token the server names, and no third-party script at all. A real
// reCAPTCHA site key: Google's script is loaded once, on first need, and asked for a token.
// Neither: an empty token (the server has no provider configured and lets every token pass).
import { useCallback } from 'react';
import type { SiteConfig } from './api/types';
import { useConfig } from './config';

export const RECAPTCHA_SCRIPT = 'https://www.google.com/recaptcha/api.js';

interface Grecaptcha {
  ready(callback: () => void): void;
  execute(siteKey: string, options: { action: string }): Promise<string>;
}

declare global {
  interface Window {
    grecaptcha?: Grecaptcha;
  }
}

export type CaptchaPlan =
  { kind: 'test'; token: string } | { kind: 'recaptcha'; siteKey: string } | { kind: 'none' };

/**
 * What the configuration asks for. The server's contract has `mode` and `testToken`; a `siteKey`
 * is read when present (the server configures no real provider yet, so today it never is).
 */
export function captchaPlan(config: Partial<SiteConfig> | null | undefined): CaptchaPlan {
  const captcha: unknown = config?.captcha;
  if (!captcha || typeof captcha !== 'object') return { kind: 'none' };
  const { testToken, siteKey } = captcha as Record<string, unknown>;
  if (typeof testToken === 'string' && testToken !== '') return { kind: 'test', token: testToken };
  if (typeof siteKey === 'string' && /^[\w-]{10,100}$/.test(siteKey)) {
    return { kind: 'recaptcha', siteKey };
  }
  return { kind: 'none' };
}

let loading: Promise<Grecaptcha> | null = null;

/** Adds Google's script to the page once and waits until it is ready. */
export function loadRecaptcha(siteKey: string, doc: Document = document): Promise<Grecaptcha> {
  if (loading) return loading;
  loading = new Promise<Grecaptcha>((resolve, reject) => {
    const script = doc.createElement('script');
    script.src = `${RECAPTCHA_SCRIPT}?render=${encodeURIComponent(siteKey)}`;
    script.async = true;
    script.dataset.kupaCaptcha = 'recaptcha';
    script.onload = () => {
      const g = window.grecaptcha;
      if (g) g.ready(() => resolve(g));
      else reject(new Error('reCAPTCHA did not load'));
    };
    script.onerror = () => {
      loading = null;
      reject(new Error('reCAPTCHA could not be loaded'));
    };
    doc.head.appendChild(script);
  });
  return loading;
}

/** For tests: forget the loaded script. */
export function resetCaptcha(): void {
  loading = null;
}

/** The token for one protected call. `action` names the call for reCAPTCHA's scores. */
export async function captchaTokenFor(
  config: Partial<SiteConfig> | null | undefined,
  action = 'submit',
): Promise<string> {
  const plan = captchaPlan(config);
  switch (plan.kind) {
    case 'test':
      return plan.token;
    case 'recaptcha': {
      const g = await loadRecaptcha(plan.siteKey);
      return g.execute(plan.siteKey, { action });
    }
    case 'none':
      return '';
  }
}

/** Asks for a fresh token for one protected call. */
export type Captcha = (action: string) => Promise<string>;

/** The site's captcha, as a function the steps call right before each protected call. */
export function useCaptcha(): Captcha {
  const raw = useConfig().raw;
  return useCallback((action: string) => captchaTokenFor(raw, action), [raw]);
}
