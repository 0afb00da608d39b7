import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { todayInCinema } from '../lib/format';
import { prefetchLanding } from './landingPrefetch';

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
