import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SiteConfig } from './api/types';
import { captchaPlan, captchaTokenFor, RECAPTCHA_SCRIPT, resetCaptcha } from './captcha';

const config = (captcha: Record<string, unknown>) =>
  ({ captcha }) as unknown as Partial<SiteConfig>;
const scripts = () =>
  [...document.querySelectorAll('script')].filter((s) => s.src.startsWith(RECAPTCHA_SCRIPT));

describe('the captcha', () => {
  beforeEach(() => {
    resetCaptcha();
    for (const s of scripts()) s.remove();
  });
  afterEach(() => {
    delete window.grecaptcha;
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
});
