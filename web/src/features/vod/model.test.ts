import { describe, expect, it } from 'vitest';
import { isUnsupportedBrowser, keepSession, keptSession } from './model';

const UA = {
  chromeLinux:
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  chromeMac:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  safariMac:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
  iphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
  chromeIphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0 Mobile/15E148 Safari/604.1',
  ipad: 'Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
  android:
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
  firefox: 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
  edge: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
};

describe('the browsers video on demand turns away (spec 8)', () => {
  it('refuses iPhone, iPad and Safari, whatever the app on an iPhone', () => {
    expect(isUnsupportedBrowser(UA.iphone)).toBe(true);
    expect(isUnsupportedBrowser(UA.chromeIphone)).toBe(true);
    expect(isUnsupportedBrowser(UA.ipad)).toBe(true);
    expect(isUnsupportedBrowser(UA.safariMac)).toBe(true);
  });

  it('refuses an iPad that asks for the desktop site (a Mac with a touch screen)', () => {
    expect(isUnsupportedBrowser(UA.safariMac, 5)).toBe(true);
    expect(isUnsupportedBrowser(UA.chromeMac, 0)).toBe(false);
  });

  it('plays in Chrome, Edge, Firefox and Android', () => {
    for (const ua of [UA.chromeLinux, UA.chromeMac, UA.android, UA.firefox, UA.edge]) {
      expect(isUnsupportedBrowser(ua)).toBe(false);
    }
  });
});

describe('the play session kept in the tab', () => {
  const store = () => {
    const m = new Map<string, string>();
    return {
      getItem: (k: string) => m.get(k) ?? null,
      setItem: (k: string, v: string) => void m.set(k, v),
    };
  };
  const now = Date.parse('2026-11-26T18:00:00Z');

  it('comes back while its link is good, and not in its last minute', () => {
    const s = store();
    keepSession(s, 'r1', {
      streamUrl: '/api/vod/r1/stream?play=1',
      expiresAt: '2026-11-26T20:00:00Z',
    });
    expect(keptSession(s, 'r1', now)?.streamUrl).toBe('/api/vod/r1/stream?play=1');
    expect(keptSession(s, 'r2', now)).toBeNull();
    expect(keptSession(s, 'r1', Date.parse('2026-11-26T19:59:30Z'))).toBeNull();
  });

  it('ignores what is not a stream link of ours', () => {
    const s = store();
    s.setItem(
      'kupa.vod.r1',
      JSON.stringify({ streamUrl: 'https://evil.example/x', expiresAt: '2099-01-01T00:00:00Z' }),
    );
    expect(keptSession(s, 'r1', now)).toBeNull();
    s.setItem('kupa.vod.r1', '{not json');
    expect(keptSession(s, 'r1', now)).toBeNull();
  });
});
