// The door's calls (docs/api.md, staff section; decision 0044): today's presentations to guard
// and the scan of a ticket. Types come from the server's OpenAPI document.
import { queryOptions } from '@tanstack/react-query';
import { apiGet, apiSend } from '../../../lib/api/client';
import type { components } from '../../../lib/api/schema';

type Schemas = components['schemas'];
export type DoorPresentation = Schemas['DoorPresentationDto'];
export type DoorScan = Schemas['DoorScanResponse'];
export type DoorResult = Schemas['DoorResult'];
export type DoorTicket = Schemas['DoorTicketDto'];

export const doorKeys = {
  presentations: ['staff', 'door', 'presentations'] as const,
};

export function doorPresentationsQuery() {
  return queryOptions({
    queryKey: doorKeys.presentations,
    queryFn: ({ signal }) =>
      apiGet<Schemas['DoorPresentationsResponse']>('/staff/door/presentations', undefined, signal),
    retry: false,
    staleTime: 5 * 60_000,
  });
}

export function doorScan(presentationId: number, code: string) {
  return apiSend<DoorScan>('POST', '/staff/door/scan', { presentationId, code });
}
