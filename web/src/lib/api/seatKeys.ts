// The names the seat modules share (seats, seatEvents, seatStatusCompact), kept in this leaf so
// their imports run one way: the query keys of a presentation's plan and status, and the shape of
// one seat change a seat event carries.

export const seatMapKeys = {
  plan: (venueId: number, seatplanId: number, presentationId?: number) =>
    ['seatplan', venueId, seatplanId, presentationId ?? null] as const,
  status: (presentationId: number) => ['seatsStatus', presentationId] as const,
};

export type SeatChangeState = 'held' | 'released' | 'sold' | 'expired';

export interface SeatChange {
  sectionId: number;
  x: number;
  y: number;
  state: SeatChangeState;
}
