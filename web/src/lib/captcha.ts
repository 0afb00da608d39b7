// The captcha token for protected calls (lock, unlock, seat plan, codes, vouchers, payment, mobile
// login). Test mode: the one token the server names, and no third-party script at all. A real
// provider (decision 0062): its script is loaded once, on first need, and asked for a token for
// each call, named by the call's action (the server checks the action reCAPTCHA v3 and Turnstile
// send back). reCAPTCHA v3 scores invisibly; reCAPTCHA v2 runs as an invisible widget (a
// challenge only when Google wants one); Turnstile runs its widget only when it needs the buyer.
// Neither: an empty token (the server has no provider configured and lets every token pass).
import { useCallback } from 'react';
import type { SiteConfig } from './api/types';
import { useConfig } from './config';

export const RECAPTCHA_SCRIPT = 'https://www.google.com/recaptcha/api.js';
export const TURNSTILE_SCRIPT = 'https://challenges.cloudflare.com/turnstile/v0/api.js';

interface WidgetOptions {
  sitekey: string;
  size?: 'invisible';
  action?: string;
  execution?: 'execute';
  appearance?: 'interaction-only';
  callback: (token: string) => void;
  'error-callback': () => void;
  'expired-callback'?: () => void;
}

interface Grecaptcha {
  ready(callback: () => void): void;
  /** v3: a token for the action. v2: runs the invisible widget, whose callback gets the token. */
  execute(siteKeyOrWidget: string | number, options?: { action: string }): Promise<string> | void;
  render?(container: HTMLElement, options: WidgetOptions): number;
  reset?(widget: number): void;
}

interface Turnstile {
  render(container: HTMLElement, options: WidgetOptions): string;
  execute(widget: string): void;
  remove(widget: string): void;
}

declare global {
  interface Window {
    grecaptcha?: Grecaptcha;
    turnstile?: Turnstile;
  }
}

export type Provider = 'recaptcha-v3' | 'recaptcha-v2' | 'turnstile';

export type CaptchaPlan =
  { kind: 'test'; token: string } | { kind: Provider; siteKey: string } | { kind: 'none' };

/**
 * What the configuration asks for: `mode` and `testToken`, and with a provider's `mode`
 * (`recaptcha-v2`, `recaptcha-v3`, `turnstile`) its public `siteKey`. A site key without a
 * provider's mode is taken as reCAPTCHA v3.
 */
export function captchaPlan(config: Partial<SiteConfig> | null | undefined): CaptchaPlan {
  const captcha: unknown = config?.captcha;
  if (!captcha || typeof captcha !== 'object') return { kind: 'none' };
  const { testToken, siteKey, mode } = captcha as Record<string, unknown>;
  if (typeof testToken === 'string' && testToken !== '') return { kind: 'test', token: testToken };
  if (typeof siteKey === 'string' && /^[\w-]{10,100}$/.test(siteKey)) {
    const kind = mode === 'recaptcha-v2' || mode === 'turnstile' ? mode : 'recaptcha-v3';
    return { kind, siteKey };
  }
  return { kind: 'none' };
}

const loading = new Map<string, Promise<void>>();

/** Adds a provider's script to the page once and waits until it has loaded. */
function loadScript(
  src: string,
  ready: (resolve: () => void) => void,
  doc: Document,
): Promise<void> {
  const known = loading.get(src);
  if (known) return known;
  const promise = new Promise<void>((resolve, reject) => {
    const script = doc.createElement('script');
    script.src = src;
    script.async = true;
    script.dataset.kupaCaptcha = 'captcha';
    script.onload = () => ready(resolve);
    script.onerror = () => {
      loading.delete(src);
      reject(new Error('the captcha could not be loaded'));
    };
    doc.head.appendChild(script);
  });
  loading.set(src, promise);
  return promise;
}

/** Adds Google's script to the page once (v3: rendered for the site key) and waits until ready. */
export async function loadRecaptcha(
  siteKey: string,
  doc: Document = document,
  explicit = false,
): Promise<Grecaptcha> {
  const src = explicit
    ? `${RECAPTCHA_SCRIPT}?render=explicit`
    : `${RECAPTCHA_SCRIPT}?render=${encodeURIComponent(siteKey)}`;
  await loadScript(
    src,
    (resolve) => {
      const g = window.grecaptcha;
      if (g) g.ready(resolve);
    },
    doc,
  );
  const g = window.grecaptcha;
  if (!g) throw new Error('reCAPTCHA did not load');
  return g;
}

async function loadTurnstile(doc: Document = document): Promise<Turnstile> {
  await loadScript(`${TURNSTILE_SCRIPT}?render=explicit`, (resolve) => resolve(), doc);
  const t = window.turnstile;
  if (!t) throw new Error('Turnstile did not load');
  return t;
}

/** Where the invisible widgets live: one box at the end of the page. */
function widgetBox(doc: Document = document): HTMLElement {
  const known = doc.getElementById('kupa-captcha');
  if (known) return known;
  const box = doc.createElement('div');
  box.id = 'kupa-captcha';
  doc.body.appendChild(box);
  return box;
}

/** One token at a time: an invisible widget answers one request before the next. */
let queue: Promise<unknown> = Promise.resolve();
function oneAtATime<T>(task: () => Promise<T>): Promise<T> {
  const next = queue.then(task, task);
  queue = next.catch(() => undefined);
  return next;
}

let v2Widget: { id: number; pending: ((token: string | null) => void) | null } | null = null;

function recaptchaV2Token(siteKey: string): Promise<string> {
  return oneAtATime(async () => {
    const g = await loadRecaptcha(siteKey, document, true);
    if (!v2Widget) {
      const widget: { id: number; pending: ((token: string | null) => void) | null } = {
        id: 0,
        pending: null,
      };
      widget.id = g.render!(widgetBox(), {
        sitekey: siteKey,
        size: 'invisible',
        callback: (token) => widget.pending?.(token),
        'error-callback': () => widget.pending?.(null),
        'expired-callback': () => widget.pending?.(null),
      });
      v2Widget = widget;
    }
    const widget = v2Widget;
    const token = await new Promise<string | null>((resolve) => {
      widget.pending = resolve;
      void g.execute(widget.id);
    });
    widget.pending = null;
    g.reset?.(widget.id);
    if (!token) throw new Error('reCAPTCHA gave no token');
    return token;
  });
}

function turnstileToken(siteKey: string, action: string): Promise<string> {
  return oneAtATime(async () => {
    const t = await loadTurnstile();
    let id = '';
    try {
      return await new Promise<string>((resolve, reject) => {
        id = t.render(widgetBox(), {
          sitekey: siteKey,
          action,
          execution: 'execute',
          appearance: 'interaction-only',
          callback: resolve,
          'error-callback': () => reject(new Error('Turnstile gave no token')),
        });
        t.execute(id);
      });
    } finally {
      if (id) t.remove(id);
    }
  });
}

/** For tests: forget the loaded scripts and widgets. */
export function resetCaptcha(): void {
  loading.clear();
  v2Widget = null;
  queue = Promise.resolve();
}

/** The token for one protected call. `action` names the call for the provider's verdict. */
export async function captchaTokenFor(
  config: Partial<SiteConfig> | null | undefined,
  action = 'submit',
): Promise<string> {
  const plan = captchaPlan(config);
  switch (plan.kind) {
    case 'test':
      return plan.token;
    case 'recaptcha-v3': {
      const g = await loadRecaptcha(plan.siteKey);
      return (await g.execute(plan.siteKey, { action })) as string;
    }
    case 'recaptcha-v2':
      return recaptchaV2Token(plan.siteKey);
    case 'turnstile':
      return turnstileToken(plan.siteKey, action);
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
