// The programme's calls (docs/api.md, "The programme"): managers only. Types come from the
// server's OpenAPI document; this file owns the programme's query keys.
import { queryOptions } from '@tanstack/react-query';
import { apiGet, apiSend } from '../../../lib/api/client';
import type { components } from '../../../lib/api/schema';

type Schemas = components['schemas'];
export type ProgrammeChoices = Schemas['ProgrammeChoicesResponse'];
export type ProgrammeWeek = Schemas['ProgrammeWeekResponse'];
export type Screening = Schemas['ScreeningDto'];
export type Hall = Schemas['HallDto'];
export type Complex = Schemas['ComplexDto'];
export type FeatureChoice = Schemas['FeatureChoiceDto'];
export type CopyWeekResponse = Schemas['CopyWeekResponse'];
export type CancelScreeningResponse = Schemas['CancelScreeningResponse'];
export type MoveScreeningResponse = Schemas['MoveScreeningResponse'];
export type ProgrammeHistory = Schemas['ProgrammeHistoryResponse'];
export type TicketGroupChoice = Schemas['TicketGroupDto'];
export type PriceList = Schemas['PriceListResponse'];
export type PriceChange = Schemas['PriceChangeDto'];
export type PriceGroup = Schemas['PriceGroupDto'];
export type ServiceChargeRule = Schemas['ServiceChargeRuleDto'];
export type SaleChannel = 'web' | 'miniSite';
export const SALE_CHANNELS: readonly SaleChannel[] = ['web', 'miniSite'];

export const programmeKeys = {
  all: ['staff', 'programme'] as const,
  choices: ['staff', 'programme', 'choices'] as const,
  week: (location: number, from: string) => ['staff', 'programme', 'week', location, from] as const,
  history: (id: number) => ['staff', 'programme', 'history', id] as const,
  prices: (businessId: number) => ['staff', 'programme', 'prices', businessId] as const,
};

export function historyQuery(id: number) {
  return queryOptions({
    queryKey: programmeKeys.history(id),
    queryFn: ({ signal }) =>
      apiGet<ProgrammeHistory>(`/staff/programme/screenings/${id}/changes`, undefined, signal),
    retry: false,
  });
}

export function choicesQuery() {
  return queryOptions({
    queryKey: programmeKeys.choices,
    queryFn: ({ signal }) =>
      apiGet<ProgrammeChoices>('/staff/programme/choices', undefined, signal),
    staleTime: 60_000,
    retry: false,
  });
}

export function weekQuery(location: number, from: string) {
  return queryOptions({
    queryKey: programmeKeys.week(location, from),
    queryFn: ({ signal }) =>
      apiGet<ProgrammeWeek>('/staff/programme/week', { locationId: location, from }, signal),
    retry: false,
  });
}

export type AddScreeningBody = {
  featureId: number;
  venueId: number;
  date: string;
  time: string;
  saleStarts?: string;
  saleEnds?: string;
  /** Its own ticket group in place of the hall's main one; absent: as the hall. */
  ticketGroupId?: number;
};

export function addScreening(body: AddScreeningBody) {
  return apiSend<{ screening: Screening }>('POST', '/staff/programme/screenings', body);
}

export function moveScreening(id: number, body: { venueId?: number; date: string; time: string }) {
  return apiSend<MoveScreeningResponse>('POST', `/staff/programme/screenings/${id}/move`, body);
}

export function cancelScreening(id: number) {
  return apiSend<CancelScreeningResponse>('POST', `/staff/programme/screenings/${id}/cancel`, {});
}

export function copyWeek(locationId: number, from: string) {
  return apiSend<CopyWeekResponse>('POST', '/staff/programme/copyWeek', { locationId, from });
}

export function setTicketGroup(id: number, ticketGroupId: number | null) {
  return apiSend<{ screening: Screening }>('PUT', `/staff/programme/screenings/${id}/ticketGroup`, {
    ticketGroupId,
  });
}

export function setScreeningChannel(id: number, channel: SaleChannel, open: boolean) {
  return apiSend<{ screening: Screening }>('PUT', `/staff/programme/screenings/${id}/channels`, {
    channel,
    open,
  });
}

// Prices from a date (decision 0070): a business's ticket prices and service charge.

export function priceListQuery(businessId: number) {
  return queryOptions({
    queryKey: programmeKeys.prices(businessId),
    queryFn: ({ signal }) => apiGet<PriceList>('/staff/prices', { businessId }, signal),
    retry: false,
  });
}

export function scheduleTicketPrice(body: {
  businessId: number;
  ticketId: number;
  effectiveFrom: string;
  price: number;
}) {
  return apiSend<{ change: PriceChange }>('POST', '/staff/prices/tickets', body);
}

export function scheduleServiceCharge(body: {
  businessId: number;
  effectiveFrom: string;
  amount?: number;
  percentBp?: number;
  perTicket: boolean;
}) {
  return apiSend<{ change: PriceChange }>('POST', '/staff/prices/serviceCharges', body);
}

export function withdrawPriceChange(change: PriceChange) {
  const kind = change.ticketId == null ? 'serviceCharges' : 'tickets';
  return apiSend<{ change: PriceChange }>(
    'POST',
    `/staff/prices/${kind}/${change.id}/withdraw`,
    {},
  );
}
