// The sales switches' and the audit's calls (docs/api.md, "Sales switches and the audit"):
// managers only. Types come from the server's OpenAPI document.
import { queryOptions } from '@tanstack/react-query';
import { apiGet, apiSend } from '../../../lib/api/client';
import type { components } from '../../../lib/api/schema';

type Schemas = components['schemas'];
export type SalesSwitch = Schemas['SalesSwitchDto'];
export type ComplexSwitches = Schemas['ComplexSwitchesDto'];
export type SalesSwitchesResponse = Schemas['SalesSwitchesResponse'];
export type AuditEntry = Schemas['AuditEntryDto'];
export type AuditResponse = Schemas['AuditResponse'];

export const AUDIT_KINDS = [
  'added',
  'moved',
  'cancelled',
  'ticketGroup',
  'screeningChannel',
  'salesSwitch',
  'seatPlan',
  'priceScheduled',
  'priceWithdrawn',
  'filmAdded',
  'filmChanged',
  'filmPoster',
  'productAdded',
  'productChanged',
  'productImage',
] as const;
export type AuditKind = (typeof AUDIT_KINDS)[number];
export type Channel = 'web' | 'miniSite';
export const AUDIT_FIELDS = [
  'featureId',
  'venueId',
  'seatplanId',
  'startsAt',
  'saleStartsAt',
  'saleEndsAt',
  'cancelledAt',
  'locationId',
  'channel',
  'offline',
  'advanceSales',
  'open',
  'version',
  'name',
  'sections',
  'seats',
  'gaCapacity',
  'basedOn',
  'ticketGroupId',
  'presentationId',
  'id',
  'ticketId',
  'serviceCharge',
  'effectiveFrom',
  'price',
  'amount',
  'percentBp',
  'perTicket',
  'withdrawn',
  'nameEn',
  'categoryId',
  'runtime',
  'classification',
  'classificationEn',
  'originalLanguage',
  'originalLanguageEn',
  'dubbing',
  'dubbingEn',
  'subtitles',
  'subtitlesEn',
  'releaseDate',
  'synopsis',
  'synopsisEn',
  'trailerUrl',
  'posterVersion',
  'posterSize',
  'category',
  'icon',
  'color',
  'sort',
  'onSale',
  'locationIds',
  'uploaded',
  'imageVersion',
  'imageSize',
] as const;
export type AuditField = (typeof AUDIT_FIELDS)[number];
export function isAuditField(f: string): f is AuditField {
  return (AUDIT_FIELDS as readonly string[]).includes(f);
}
export const AUDIT_PAGE = 20;

export const backofficeKeys = {
  switches: ['staff', 'salesSwitches'] as const,
  audit: ['staff', 'audit'] as const,
};

export function switchesQuery() {
  return queryOptions({
    queryKey: backofficeKeys.switches,
    queryFn: ({ signal }) =>
      apiGet<SalesSwitchesResponse>('/staff/salesSwitches', undefined, signal),
    retry: false,
  });
}

export function setSwitch(body: SalesSwitch) {
  return apiSend<{ switch: SalesSwitch }>('PUT', '/staff/salesSwitches', body);
}

export type AuditFilter = { kind: string; locationId: number | null; before: number | null };

export function auditQuery(f: AuditFilter) {
  return queryOptions({
    queryKey: [...backofficeKeys.audit, f.kind, f.locationId, f.before] as const,
    queryFn: ({ signal }) =>
      apiGet<AuditResponse>(
        '/staff/audit',
        {
          limit: AUDIT_PAGE,
          ...(f.kind ? { kind: f.kind } : {}),
          ...(f.locationId !== null ? { locationId: f.locationId } : {}),
          ...(f.before !== null ? { before: f.before } : {}),
        },
        signal,
      ),
    retry: false,
  });
}
