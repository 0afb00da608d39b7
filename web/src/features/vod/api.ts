// Video on demand's calls (decision 0053): a purchase's item, and the play session that spends
// one viewing and answers the film's signed stream link. The one owner of the ['vod', id] key.
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiGet, apiSend } from '../../lib/api/client';
import type { components } from '../../lib/api/schema';

export type VodItem = components['schemas']['VodItem'];
export type PlaySession = components['schemas']['PlaySessionResponse'];

export const vodKeys = {
  item: (reservationId: string) => ['vod', reservationId] as const,
};

export function vodItemQuery(reservationId: string) {
  return queryOptions({
    queryKey: vodKeys.item(reservationId),
    queryFn: ({ signal }) =>
      apiGet<VodItem>(`/vod/${encodeURIComponent(reservationId)}`, undefined, signal),
    retry: false,
  });
}

export function useVodItem(reservationId: string) {
  return useQuery(vodItemQuery(reservationId));
}

/** Opens a play session: one viewing spent, the item as it now stands kept in the cache. */
export function useOpenPlaySession(reservationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['vod', reservationId, 'play'] as const,
    mutationFn: () =>
      apiSend<PlaySession>('POST', `/vod/${encodeURIComponent(reservationId)}/play`, undefined),
    onSuccess: (session) => queryClient.setQueryData(vodKeys.item(reservationId), session.item),
  });
}
