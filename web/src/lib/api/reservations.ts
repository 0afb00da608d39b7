// A paid reservation read back (GET /reservations/{id}), and the one place that owns its query
// key: the confirmation and reservation pages (the order feature) and the seat-change screen
// read it, and a seat change reads it again.
import { queryOptions } from '@tanstack/react-query';
import { apiGet } from './client';
import type { components } from './schema';

export type Reservation = components['schemas']['Reservation'];
export type ReservationResponse = components['schemas']['ReservationResponse'];

/**
 * A signed link's proof (`?exp=…&sig=…`), as the confirmation page's own address carries it from
 * the mail, the text message or the calendar: it opens the reservation without the buyer's session.
 */
export interface LinkProof {
  exp: string;
  sig: string;
}

/** The proof in an address's query, when it carries both halves. */
export function linkProofOf(params: URLSearchParams): LinkProof | null {
  const exp = params.get('exp');
  const sig = params.get('sig');
  return exp && sig ? { exp, sig } : null;
}

export function fetchReservation(
  id: string,
  link: LinkProof | null,
  signal?: AbortSignal,
): Promise<ReservationResponse> {
  return apiGet<ReservationResponse>(
    `/reservations/${encodeURIComponent(id)}`,
    link ? { exp: link.exp, sig: link.sig } : undefined,
    signal,
  );
}

export const reservationKeys = {
  one: (id: string, link: LinkProof | null = null) =>
    ['reservation', id, link?.exp ?? null, link?.sig ?? null] as const,
};

/** A paid reservation, as the confirmation shows it: for the buyer's session or a signed link. */
export function reservationQuery(id: string, link: LinkProof | null = null) {
  return queryOptions({
    queryKey: reservationKeys.one(id, link),
    queryFn: ({ signal }) => fetchReservation(id, link, signal),
  });
}

/** The confirmation page of a reservation on this site. */
export const reservationPath = (id: string) => `/reservation/${encodeURIComponent(id)}`;
