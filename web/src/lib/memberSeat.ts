// A member seat: one seat held in every screening of a season (an enrolment's first step, a
// seated membership's seat), read from the server's `selections`, its only record.

/** A seat this session holds in one screening (the season calls' `selections` entries). */
export interface HeldSeat {
  presentationId: number;
  sectionId: number;
  x: number;
  y: number;
}

/** The seats held, by screening: the server answers one per screening of the season. */
export function selectionsBy<S extends HeldSeat>(list: readonly S[]): Record<number, S> {
  return Object.fromEntries(list.map((s) => [s.presentationId, s]));
}

/** The one seat held in every screening named, if there is one (the first screening's). */
export function seatInEvery<S extends HeldSeat>(
  presentationIds: readonly number[],
  selections: Readonly<Record<number, S>>,
): S | null {
  const first = selections[presentationIds[0]];
  if (!first) return null;
  const same = presentationIds.every((id) => {
    const s = selections[id];
    return s && s.sectionId === first.sectionId && s.x === first.x && s.y === first.y;
  });
  return same ? first : null;
}
