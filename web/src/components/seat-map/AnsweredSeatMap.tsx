import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { SeatMap } from './SeatMap';
import { blockReasons, stateOf, type SeatState } from './seatModel';
import { seatKey } from '../../lib/seatAddress';
import { Loading } from '../ui/Loading';
import type { SeatShort, SeatStatusShort, SeatplanV2 } from '../../lib/api/types';
import { errorMessage } from '../../lib/apiErrors';

/** A map's answer as its feature's query holds it: the hall's plan and each seat's state. */
export interface MapAnswer {
  isPending: boolean;
  error: unknown;
  data?: { seatplan: SeatplanV2; seats: SeatStatusShort[] };
}

/**
 * A hall's map drawn from one answer that carries the plan and its seats' states for this
 * session (a season's member-seat map, polled by its feature: a seat is free only when it is free
 * in every screening, so the order's per-screening event stream cannot feed it). A free seat
 * tapped is `onPick`'s; the seats held are marked; while a call is on its way every seat waits.
 */
export function AnsweredSeatMap({
  map,
  hallName,
  busy,
  onPick,
}: {
  map: MapAnswer;
  hallName: string;
  busy: boolean;
  onPick: (seat: SeatShort) => void;
}) {
  const { t } = useTranslation();
  const states = useMemo(() => {
    const states = new Map<string, SeatState>();
    for (const s of map.data?.seats ?? []) states.set(seatKey(s), stateOf(s));
    return states;
  }, [map.data]);
  const reasons = useMemo(() => blockReasons(map.data?.seats ?? []), [map.data]);
  const busyKeys = useMemo(() => new Set<string>(busy ? states.keys() : []), [busy, states]);
  if (map.isPending) return <Loading />;
  if (!map.data) return <p role="alert">{errorMessage(t, map.error)}</p>;
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
