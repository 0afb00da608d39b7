// A mini-site's page call (decision 0050). The order's channel (miniSiteUrl carried through the
// order's calls) is lib/api/orderChannel.ts.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '../../lib/api/client';
import type { components } from '../../lib/api/schema';

export type MiniSiteResponse = components['schemas']['MiniSiteResponse'];
export type MiniSite = MiniSiteResponse['miniSite'];

/** The one owner of the ['miniSite', url] query key. */
export function miniSiteQuery(url: string) {
  return queryOptions({
    queryKey: ['miniSite', url] as const,
    queryFn: ({ signal }) =>
      apiGet<MiniSiteResponse>(`/mini-site/${encodeURIComponent(url)}`, undefined, signal),
    staleTime: 60_000,
  });
}

export function useMiniSite(url: string | null) {
  return useQuery({ ...miniSiteQuery(url ?? ''), enabled: url !== null, retry: false });
}
