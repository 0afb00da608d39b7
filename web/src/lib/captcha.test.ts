import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SiteConfig } from './api/types';
import {
  captchaPlan,
  captchaTokenFor,
  RECAPTCHA_SCRIPT,
  resetCaptcha,
  TURNSTILE_SCRIPT,
} from './captcha';

const config = (captcha: Record<string, unknown>) =>
  ({ captcha }) as unknown as Partial<SiteConfig>;
const scripts = () =>
  [...document.querySelectorAll('script')].filter(
    (s) => s.src.startsWith(RECAPTCHA_SCRIPT) || s.src.startsWith(TURNSTILE_SCRIPT),
  );

describe('the captcha', () => {
  beforeEach(() => {
    resetCaptcha();
    for (const s of scripts()) s.remove();
  });
  afterEach(() => {
    delete window.grecaptcha;
    delete window.turnstile;
  });

  it('sends the test token in test mode and loads no script', async () => {
    const c = config({ mode: 'test', testToken: 'kupa-test-captcha' });
    expect(captchaPlan(c)).toEqual({ kind: 'test', token: 'kupa-test-captcha' });
    expect(await captchaTokenFor(c)).toBe('kupa-test-captcha');
    expect(scripts()).toHaveLength(0);
  });

  it('sends an empty token and loads no script when no provider is configured', async () => {
    expect(await captchaTokenFor(config({ mode: 'off', testToken: null }))).toBe('');
    expect(await captchaTokenFor(null)).toBe('');
    expect(scripts()).toHaveLength(0);
  });

  it('ignores a site key that is not one', async () => {
    expect(captchaPlan(config({ mode: 'off', siteKey: '"><script>' }))).toEqual({ kind: 'none' });
    expect(scripts()).toHaveLength(0);
  });

  it('loads reCAPTCHA once with a real site key and asks it for each token', async () => {
    const c = config({ mode: 'recaptcha', siteKey: '6LcTestSiteKey_abcdefgh' });
    const execute = vi.fn(async (_key: string, o: { action: string }) => `token-${o.action}`);
    const first = captchaTokenFor(c, 'lockSeat');
    const [script] = scripts();
    expect(script).toBeDefined();
    expect(script.src).toBe(`${RECAPTCHA_SCRIPT}?render=6LcTestSiteKey_abcdefgh`);
    window.grecaptcha = { ready: (cb) => cb(), execute };
    script.dispatchEvent(new Event('load'));
    expect(await first).toBe('token-lockSeat');
    expect(await captchaTokenFor(c, 'commit')).toBe('token-commit');
    expect(scripts()).toHaveLength(1);
    expect(execute).toHaveBeenCalledWith('6LcTestSiteKey_abcdefgh', { action: 'commit' });
  });

  it('runs reCAPTCHA v2 as one invisible widget and takes the token from its callback', async () => {
    const c = config({ mode: 'recaptcha-v2', testToken: null, siteKey: '6LcTestSiteKey_abcdefgh' });
    let callback: ((token: string) => void) | undefined;
    const render = vi.fn((_box: HTMLElement, o: { callback: (t: string) => void }) => {
      callback = o.callback;
      return 7;
    });
    let n = 0;
    const execute = vi.fn(() => {
      n += 1;
      callback?.(`v2-token-${n}`);
    });
    const reset = vi.fn();
    const first = captchaTokenFor(c, 'lockSeat');
    await Promise.resolve();
    const [script] = scripts();
    expect(script.src).toBe(`${RECAPTCHA_SCRIPT}?render=explicit`);
    window.grecaptcha = { ready: (cb) => cb(), execute, render, reset };
    script.dispatchEvent(new Event('load'));
    expect(await first).toBe('v2-token-1');
    expect(await captchaTokenFor(c, 'commit')).toBe('v2-token-2');
    expect(render).toHaveBeenCalledTimes(1);
    expect(render.mock.calls[0][1]).toMatchObject({
      sitekey: '6LcTestSiteKey_abcdefgh',
      size: 'invisible',
    });
    expect(execute).toHaveBeenCalledWith(7);
    expect(reset).toHaveBeenCalledTimes(2);
  });

  it('renders a Turnstile widget per token, named by the action, and removes it', async () => {
    const c = config({ mode: 'turnstile', testToken: null, siteKey: '0x4AAAAAAATestKey' });
    const render = vi.fn(
      (_box: HTMLElement, o: { action?: string; callback: (t: string) => void }) => {
        queueMicrotask(() => o.callback(`ts-${o.action}`));
        return 'w1';
      },
    );
    const remove = vi.fn();
    const first = captchaTokenFor(c, 'payment');
    await Promise.resolve();
    const [script] = scripts();
    expect(script.src).toBe(`${TURNSTILE_SCRIPT}?render=explicit`);
    window.turnstile = { render, execute: vi.fn(), remove };
    script.dispatchEvent(new Event('load'));
    expect(await first).toBe('ts-payment');
    expect(render.mock.calls[0][1]).toMatchObject({
      sitekey: '0x4AAAAAAATestKey',
      action: 'payment',
    });
    expect(remove).toHaveBeenCalledWith('w1');
  });
});
