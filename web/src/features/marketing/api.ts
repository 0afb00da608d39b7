// The marketing pages' calls (decision 0051): the three forms, search and the complexes. The
// movie page and the quick order read the catalogue's own calls (features, upcoming screenings).
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet, apiSend, fetchFeatures, fetchUpcomingPresentations } from '../../lib/api/client';
import type { components } from '../../lib/api/schema';

type Schemas = components['schemas'];
export type InquiryBody = Schemas['InquiryBody'];
export type InquiryResponse = Schemas['InquiryResponse'];
export type Complex = Schemas['Complex'];
export type SearchResponse = Schemas['SearchResponse'];

export function postInquiry(body: InquiryBody): Promise<InquiryResponse> {
  return apiSend<InquiryResponse>('POST', '/inquiries', body);
}

/** The one owner of the ['complexes'] query key. */
export const complexesQuery = queryOptions({
  queryKey: ['complexes'] as const,
  queryFn: ({ signal }) => apiGet<Schemas['ComplexesResponse']>('/locations', undefined, signal),
  staleTime: 10 * 60_000,
});

export function useComplexes() {
  return useQuery(complexesQuery);
}

/** The one owner of the ['search', q] query key. */
export function useSearch(q: string) {
  const query = q.trim();
  return useQuery({
    queryKey: ['search', query] as const,
    queryFn: ({ signal }) => apiGet<SearchResponse>('/search', { q: query }, signal),
    enabled: query !== '',
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });
}

/** One feature's details (the movie page). The one owner of ['marketing', 'feature', id]. */
export function useFeature(id: number) {
  return useQuery({
    queryKey: ['marketing', 'feature', id] as const,
    queryFn: async ({ signal }) => {
      const { features } = await fetchFeatures({ featureIds: [id] }, signal);
      return features.find((f) => f.id === id) ?? null;
    },
    enabled: Number.isInteger(id) && id > 0,
    staleTime: 10 * 60_000,
  });
}

/**
 * Upcoming screenings, of one feature or all (the movie page, the quick order). The one owner of
 * ['marketing', 'upcoming', featureId].
 */
export function useUpcoming(featureId?: number) {
  return useQuery({
    queryKey: ['marketing', 'upcoming', featureId ?? 'all'] as const,
    queryFn: ({ signal }) =>
      fetchUpcomingPresentations(featureId ? { featureIds: [featureId] } : {}, signal),
    staleTime: 60_000,
  });
}
