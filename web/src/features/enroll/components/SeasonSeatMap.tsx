import { useQuery } from '@tanstack/react-query';
import { AnsweredSeatMap } from '../../../components/seat-map/AnsweredSeatMap';
import { enrollSeatplanQuery } from '../../../lib/api/enroll';
import type { SeatShort } from '../../../lib/api/types';

/**
 * The season hall's map: without a presentation the member seat's (a seat is free only when it
 * is free in every presentation of the season), with one that presentation's, as the server
 * answers them for this session.
 */
export function SeasonSeatMap({
  membershipId,
  seasonId,
  presentationId,
  hallName,
  busy,
  onPick,
}: {
  membershipId: number;
  seasonId: number;
  presentationId: number | null;
  hallName: string;
  busy: boolean;
  onPick: (seat: SeatShort) => void;
}) {
  const map = useQuery(enrollSeatplanQuery(membershipId, seasonId, presentationId));
  return <AnsweredSeatMap map={map} hallName={hallName} busy={busy} onPick={onPick} />;
}
