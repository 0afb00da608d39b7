import { queryOptions, useQuery } from '@tanstack/react-query';
import { fetchPresentation } from '../../../lib/api/client';

/** The one owner of the ['presentation', id] query key. */
export function presentationQuery(id: number) {
  return queryOptions({
    queryKey: ['presentation', id] as const,
    queryFn: ({ signal }) => fetchPresentation(id, signal),
  });
}

export function usePresentation(id: number | null) {
  return useQuery({ ...presentationQuery(id ?? 0), enabled: id !== null });
}
