// The staff side's calls (docs/api.md §13): the staff login and the PRES-live attendance calls.
// Types come from the server's OpenAPI document.
import { queryOptions } from '@tanstack/react-query';
import { apiGet, apiSend } from '../../lib/api/client';
import type { components } from '../../lib/api/schema';
import type { ReportData, ReportName, ReportQuery } from './reportsModel';

type Schemas = components['schemas'];
export type StaffMe = Schemas['StaffMe'];
export type StaffMeResponse = Schemas['StaffMeResponse'];
export type LiveFigures = Schemas['LiveFigures'];
export type AttendanceByDateResponse = Schemas['AttendanceByDateResponse'];
export type AttendanceResponse = Schemas['AttendanceResponse'];
export type AttendanceRow = Schemas['AttendanceRow'];
export type PresentationBoxResponse = Schemas['PresentationBoxResponse'];
export type PresentationLive = Schemas['PresentationLive'];
export type CinemaFilterData = Schemas['CinemaFilterData'];

export type DrillBy = 'venue' | 'feature';

export const staffKeys = {
  me: ['staff', 'me'] as const,
  filter: ['staff', 'filter'] as const,
  days: (from: string, to: string) => ['staff', 'days', from, to] as const,
  locations: (date: string) => ['staff', 'locations', date] as const,
  drill: (date: string, location: number, by: DrillBy) =>
    ['staff', 'drill', date, location, by] as const,
  box: (date: string, location: number, by: DrillBy, id: number) =>
    ['staff', 'box', date, location, by, id] as const,
};

/** Once loaded, a view is kept (spec section 4): live changes refresh it, not a timer. */
const CACHED = { staleTime: Infinity, retry: false } as const;

export function staffMeQuery() {
  return queryOptions({
    queryKey: staffKeys.me,
    queryFn: ({ signal }) => apiGet<StaffMeResponse>('/staff/me', undefined, signal),
    retry: false,
    staleTime: 60_000,
  });
}

export function staffLogin(body: { email: string; password: string; totpCode?: string }) {
  return apiSend<StaffMeResponse>('POST', '/staff/login', body);
}

export function staffLogout() {
  return apiSend<{ success: boolean }>('POST', '/staff/logout', {});
}

export function filterQuery() {
  return queryOptions({
    queryKey: staffKeys.filter,
    queryFn: ({ signal }) =>
      apiGet<CinemaFilterData>('/PRES-live/getCinemaFilterData', undefined, signal),
    ...CACHED,
  });
}

export function daysQuery(from: string, to: string) {
  return queryOptions({
    queryKey: staffKeys.days(from, to),
    queryFn: ({ signal }) =>
      apiGet<AttendanceByDateResponse>(
        `/PRES-live/attendanceByDate/${from}/${to}`,
        undefined,
        signal,
      ),
    ...CACHED,
  });
}

export function locationsQuery(date: string) {
  return queryOptions({
    queryKey: staffKeys.locations(date),
    queryFn: ({ signal }) =>
      apiGet<AttendanceResponse>(
        `/PRES-live/attendanceByDateByLocation/${date}`,
        undefined,
        signal,
      ),
    ...CACHED,
  });
}

export function drillQuery(date: string, location: number, by: DrillBy) {
  const path =
    by === 'venue'
      ? `/PRES-live/attendanceByDateByLocationByVenue/${date}/${location}`
      : `/PRES-live/attendanceByDateByLocationByFeature/${date}/${location}`;
  return queryOptions({
    queryKey: staffKeys.drill(date, location, by),
    queryFn: ({ signal }) => apiGet<AttendanceResponse>(path, undefined, signal),
    ...CACHED,
  });
}

export function fetchBox(
  date: string,
  location: number,
  by: DrillBy,
  id: number,
  signal?: AbortSignal,
): Promise<PresentationBoxResponse> {
  return apiGet<PresentationBoxResponse>(
    `/PRES-live/attendanceByDatePresentationBox/${date}/${location}/${by}/${id}`,
    undefined,
    signal,
  );
}

/** The id of a row: the location's, venue's or feature's (-1: the total row). */
export function rowId(row: AttendanceRow): number {
  return row.LocationId ?? row.VenueId ?? row.FeatureId ?? -1;
}

export type PresentationsSalesResponse = Schemas['PresentationsSalesResponse'];
export type AvailableFeaturesResponse = Schemas['AvailableFeaturesResponse'];
export type RefOptionsResponse = Schemas['RefOptionsResponse'];
export type RefOptionRow = Schemas['RefOptionRow'];
export type RefSalesResponse = Schemas['RefSalesResponse'];

export function availableFeaturesQuery(startDate: string, endDate: string) {
  return queryOptions({
    queryKey: ['staff', 'v2', 'features', startDate, endDate] as const,
    queryFn: ({ signal }) =>
      apiGet<AvailableFeaturesResponse>(
        '/PRES-live/v2/availableFeatures',
        { startDate, endDate },
        signal,
      ),
    ...CACHED,
  });
}

export function fetchFeatureData(
  q: { featureId: number; locationId?: number; startDate: string; endDate: string },
  signal?: AbortSignal,
): Promise<PresentationsSalesResponse> {
  return apiGet<PresentationsSalesResponse>('/PRES-live/v2/featureData', q, signal);
}

export const refKeys = {
  options: ['staff', 'refs', 'options'] as const,
  sales: ['staff', 'refs', 'sales'] as const,
};

export function refOptionsQuery() {
  return queryOptions({
    queryKey: refKeys.options,
    queryFn: ({ signal }) =>
      apiGet<RefOptionsResponse>(
        '/pres-live/monitors/TicketReferencePromptAdmin/data',
        undefined,
        signal,
      ),
    retry: false,
  });
}

export function refSalesQuery() {
  return queryOptions({
    queryKey: refKeys.sales,
    queryFn: ({ signal }) =>
      apiGet<RefSalesResponse>(
        '/pres-live/monitors/TicketReferencePromptAdminTicketSales/data',
        { detailLevel: 1, dateType: 2 },
        signal,
      ),
    retry: false,
  });
}

export function editRefQuantity(o: RefOptionRow, quantity: number) {
  return apiSend<{ success: boolean }>(
    'POST',
    `/pres-live/editReferencePromptOptionQuantity/1/${o.PriceType}/${o.PriceId}/${o.PriceRowId}`,
    { reference: o.Reference1, reference2: o.Reference2, quantity },
  );
}

/** The reference-prompt admin's SMS resend: the reservation's tickets again, to its own number. */
export function resendTickets(reservation: string) {
  return apiSend<{ success: boolean }>(
    'POST',
    `/pres-live/reservations/${encodeURIComponent(reservation)}/sendTickets`,
    {},
  );
}

/** A cinema report's rows for a range and businesses (managers only; docs/api.md, reports). */
export function reportQuery(report: ReportName, q: ReportQuery) {
  return queryOptions({
    queryKey: ['staff', 'reports', report, q.from, q.to, q.businessIds.join(',')] as const,
    queryFn: ({ signal }) =>
      apiGet<ReportData>(
        `/staff/reports/${report}`,
        { from: q.from, to: q.to, businessIds: q.businessIds },
        signal,
      ),
    retry: false,
    staleTime: 60_000,
  });
}
