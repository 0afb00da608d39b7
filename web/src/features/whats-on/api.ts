import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { fetchFeatures, fetchPresentationsByDate } from '../../lib/api/client';

/** The one owner of the ['presentations', 'byDate', date] query key. */
export function presentationsByDateQuery(date: string) {
  return queryOptions({
    queryKey: ['presentations', 'byDate', date] as const,
    queryFn: ({ signal }) => fetchPresentationsByDate(date, signal),
  });
}

export function usePresentationsByDate(date: string) {
  return useQuery({ ...presentationsByDateQuery(date), placeholderData: keepPreviousData });
}

/** The one owner of the ['features', ids] query key. */
export function featuresQuery(featureIds: readonly number[]) {
  const ids = [...new Set(featureIds)].sort((a, b) => a - b);
  return queryOptions({
    queryKey: ['features', ids] as const,
    queryFn: ({ signal }) => fetchFeatures({ featureIds: ids }, signal),
    staleTime: 10 * 60_000,
  });
}

/** Details (category, synopsis…) of the listed features; the schedule shows without them. */
export function useFeatures(featureIds: readonly number[]) {
  return useQuery({
    ...featuresQuery(featureIds),
    enabled: featureIds.length > 0,
    placeholderData: keepPreviousData,
    retry: false,
  });
}
