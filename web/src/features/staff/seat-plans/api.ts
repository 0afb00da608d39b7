// The seat-plan editor's calls (docs/api.md, "Seat plans"): managers only. Types come from the
// server's OpenAPI document; this file owns the editor's query keys.
import { queryOptions } from '@tanstack/react-query';
import { apiGet, apiSend } from '../../../lib/api/client';
import type { components } from '../../../lib/api/schema';

type Schemas = components['schemas'];
export type SeatPlanVersions = Schemas['SeatPlanVersionsResponse'];
export type SeatPlanVersion = Schemas['SeatPlanVersionDto'];
export type SeatPlanResponse = Schemas['SeatPlanResponse'];
export type SeatPlanDoc = Schemas['SeatPlanDoc'];
export type TicketGroup = Schemas['TicketGroupDto'];

export const seatPlanKeys = {
  all: ['staff', 'seatPlans'] as const,
  versions: (venue: number) => ['staff', 'seatPlans', 'versions', venue] as const,
  plan: (id: number) => ['staff', 'seatPlans', 'plan', id] as const,
};

export function versionsQuery(venue: number) {
  return queryOptions({
    queryKey: seatPlanKeys.versions(venue),
    queryFn: ({ signal }) =>
      apiGet<SeatPlanVersions>('/staff/seatPlans', { venueId: venue }, signal),
    retry: false,
  });
}

export function planQuery(id: number) {
  return queryOptions({
    queryKey: seatPlanKeys.plan(id),
    queryFn: ({ signal }) => apiGet<SeatPlanResponse>(`/staff/seatPlans/${id}`, undefined, signal),
    retry: false,
    staleTime: Infinity,
  });
}

export function saveSeatPlan(venueId: number, basedOn: number | null, plan: SeatPlanDoc) {
  return apiSend<SeatPlanResponse>('POST', '/staff/seatPlans', {
    venueId,
    ...(basedOn !== null ? { basedOn } : {}),
    plan,
  });
}
