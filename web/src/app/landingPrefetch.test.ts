import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { todayInCinema } from '../lib/format';
import { prefetchLanding, readLandingData, type LandingData } from './landingPrefetch';

function keysAsked(pathname: string, search = ''): unknown[] {
  const client = new QueryClient();
  const prefetch = vi.spyOn(client, 'prefetchQuery').mockResolvedValue(undefined);
  prefetchLanding(client, { pathname, search });
  return prefetch.mock.calls.map(([options]) => options.queryKey);
}

describe('the landing page’s data, asked for beside the configuration', () => {
  it('asks what’s on for the day the page will show', () => {
    expect(keysAsked('/', '?date=2026-12-08&view=byFeature')).toEqual([
      ['presentations', 'byDate', '2026-12-08'],
    ]);
    expect(keysAsked('/', '?date=tomorrow')).toEqual([
      ['presentations', 'byDate', todayInCinema()],
    ]);
  });

  it('asks an order page for its presentation, and nothing for other pages', () => {
    expect(keysAsked('/order/1115')).toEqual([['presentation', 1115]]);
    expect(keysAsked('/order/1115/')).toEqual([['presentation', 1115]]);
    expect(keysAsked('/order/abc')).toEqual([]);
    expect(keysAsked('/terms')).toEqual([]);
    expect(keysAsked('/customer-area')).toEqual([]);
  });
});

describe('the landing page’s data, written into its HTML by the server', () => {
  const day = {
    date: '2026-12-08',
    presentations: [],
    saleDates: ['2026-12-08'],
    serverTime: '2026-12-08T08:00:00Z',
  };
  const config = { testMode: true } as unknown as LandingData['config'];

  function seeded(pathname: string, search: string, landing: LandingData) {
    const client = new QueryClient();
    const prefetch = vi.spyOn(client, 'prefetchQuery').mockResolvedValue(undefined);
    prefetchLanding(client, { pathname, search }, landing);
    return { client, asked: prefetch.mock.calls.map(([options]) => options.queryKey) };
  }

  it('seeds the configuration and the day the index shows, and asks for nothing', () => {
    const { client, asked } = seeded('/', '?date=2026-12-08', {
      config,
      presentationsByDate: day as unknown as LandingData['presentationsByDate'],
    });
    expect(asked).toEqual([]);
    expect(client.getQueryData(['config'])).toBe(config);
    expect(client.getQueryData(['presentations', 'byDate', '2026-12-08'])).toBe(day);
  });

  it('seeds the cards’ details under the key the page asks them by', () => {
    const withFilms = {
      ...day,
      presentations: [{ featureId: 30 }, { featureId: 10 }, { featureId: 30 }],
    };
    const features = { features: [{ id: 10 }, { id: 30 }] };
    const { client, asked } = seeded('/', '?date=2026-12-08', {
      presentationsByDate: withFilms as unknown as LandingData['presentationsByDate'],
      features: features as unknown as LandingData['features'],
    });
    expect(asked).toEqual([]);
    // WhatsOnPage asks useFeatures(groups.map((g) => g.featureId)): sorted, once each.
    expect(client.getQueryData(['features', [10, 30]])).toBe(features);
  });

  it('asks for the day itself when the server wrote another (its midnight is not ours)', () => {
    const { client, asked } = seeded('/', '?date=2026-12-09', {
      presentationsByDate: day as unknown as LandingData['presentationsByDate'],
    });
    expect(asked).toEqual([['presentations', 'byDate', '2026-12-09']]);
    expect(client.getQueryData(['presentations', 'byDate', '2026-12-08'])).toBeUndefined();
  });

  it('seeds an order page’s presentation, except for another id or a mini-site’s order', () => {
    const presentation = {
      presentation: { id: 1115 },
    } as unknown as LandingData['presentation'];
    const same = seeded('/order/1115', '', { presentation });
    expect(same.asked).toEqual([]);
    expect(same.client.getQueryData(['presentation', 1115])).toBe(presentation);
    expect(seeded('/order/1116', '', { presentation }).asked).toEqual([['presentation', 1116]]);
    const site = seeded('/order/1115', '?miniSiteUrl=festival', { presentation });
    expect(site.asked).toEqual([['presentation', 1115]]);
    expect(site.client.getQueryData(['presentation', 1115])).toBeUndefined();
  });

  it('reads the block the server wrote, and nothing from a missing or broken one', () => {
    const doc = (text: string | null) => ({
      getElementById: (id: string) =>
        id === 'kupa-landing' && text !== null ? ({ textContent: text } as HTMLElement) : null,
    });
    expect(readLandingData(doc('{"config":{"testMode":true}}'))).toEqual({
      config: { testMode: true },
    });
    expect(readLandingData(doc(null))).toEqual({});
    expect(readLandingData(doc('{not json'))).toEqual({});
    expect(readLandingData(doc('42'))).toEqual({});
  });
});
