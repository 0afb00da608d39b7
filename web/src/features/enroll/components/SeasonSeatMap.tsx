import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { SeatMap } from '../../../components/seat-map/SeatMap';
import {
  blockReasons,
  seatKey,
  stateOf,
  type SeatState,
} from '../../../components/seat-map/seatModel';
import { Loading } from '../../../components/ui/Loading';
import { enrollSeatplanQuery } from '../../../lib/api/enroll';
import type { SeatShort } from '../../../lib/api/types';
import { errorMessage } from '../../../lib/apiErrors';

/**
 * The season hall's map: without a presentation the member seat's (a seat is free only when it
 * is free in every presentation of the season), with one that presentation's, as the server
 * answers them for this session. A free seat tapped is `onPick`'s; the seat held is marked.
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
  const { t } = useTranslation();
  const map = useQuery(enrollSeatplanQuery(membershipId, seasonId, presentationId));
  const states = useMemo(() => {
    const states = new Map<string, SeatState>();
    for (const s of map.data?.seats ?? []) states.set(seatKey(s), stateOf(s));
    return states;
  }, [map.data]);
  const reasons = useMemo(() => blockReasons(map.data?.seats ?? []), [map.data]);
  const busyKeys = useMemo(() => new Set<string>(busy ? states.keys() : []), [busy, states]);
  if (map.isPending) return <Loading />;
  if (map.isError) return <p role="alert">{errorMessage(t, map.error)}</p>;
  return (
    <SeatMap
      plan={map.data.seatplan}
      states={states}
      reasons={reasons}
      busy={busyKeys}
      name={hallName}
      onSeatActivate={(seat, state) => {
        if (state === 'available' && !busy) onPick(seat);
      }}
    />
  );
}
