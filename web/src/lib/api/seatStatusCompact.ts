// The seat map's status in the compact form (GET /seats/seats-statusV2/compact, decision 0060):
// what the query cache keeps per presentation (one letter per seat of the plan, the version to
// ask `since`, the ETag to revalidate), how an answer or a seat event updates it, and the V2
// status object (GET /seats/seats-statusV2) the seat map components read, built from it and the
// plan's seats. All pure.
import { seatKey } from '../seatAddress';
import type { Revalidated } from './client';
import type { SeatChange } from './seatKeys';
import type {
  SeatStatusShort,
  SeatsStatusCompactResponse,
  SeatsStatusV2Response,
  SectionStatus,
} from './types';

/** What the cache keeps for one presentation. */
export interface CompactSeatStatus {
  presentationId: number;
  /** The version of the last answer: sent back as `since`. */
  version: string;
  /** The last answer's ETag, sent back as `If-None-Match` (null: ask without). */
  etag: string | null;
  /** One letter per seat, in the order of the plan's `seats`: a, m (held by me), o, s. */
  letters: string;
  /** Indexes of the free seats blocked by the single-seat rule (V2's `blockReason: singleSeat`). */
  blocked: readonly number[];
  /** Indexes of the seats sold at the box office only (V2's `blockReason: boxOffice`). */
  boxOffice: readonly number[];
  sections: readonly SectionStatus[];
  serverTime: string;
}

/**
 * The cached status after an answer: a 304 keeps it as it is (the very same object); a full
 * answer replaces the letters; a delta writes its changes over them (an index past the plan's
 * seats is ignored). `blocked`, `boxOffice` and `sections` are always the answer's.
 */
export function mergeCompact(
  prev: CompactSeatStatus | undefined,
  answer: Revalidated<SeatsStatusCompactResponse>,
): CompactSeatStatus {
  if (answer.notModified) {
    if (!prev) throw new Error('a 304 for a status this page never had');
    return prev;
  }
  const { data } = answer;
  let letters: string;
  if (data.full || !prev) {
    if (!data.full) throw new Error('a delta for a status this page never had');
    letters = data.seats ?? '';
  } else {
    const chars = prev.letters.split('');
    for (const { i, s } of data.changes ?? []) {
      if (Number.isInteger(i) && i >= 0 && i < chars.length && s.length === 1) chars[i] = s;
    }
    letters = chars.join('');
  }
  return {
    presentationId: data.presentationId,
    version: data.version,
    etag: answer.etag,
    letters,
    blocked: data.blocked,
    boxOffice: data.boxOffice,
    sections: data.sections,
    serverTime: data.serverTime,
  };
}

const STATES: Record<string, SeatStatusShort['s']> = {
  a: 'available',
  m: 'heldByMe',
  o: 'heldByOther',
  s: 'sold',
};

/**
 * The V2 status object (as GET /seats/seats-statusV2 answers it) of the plan's seats and the
 * cached letters: the seat map renders exactly as it did from V2. A seat with no letter (the
 * plan and the status disagree) is left out, which the map draws as not available.
 */
export function statusFromCompact(
  planSeats: readonly { si: number; x: number; y: number }[],
  status: CompactSeatStatus,
): SeatsStatusV2Response {
  const blocked = new Set(status.blocked);
  const boxOffice = new Set(status.boxOffice);
  const seats: SeatStatusShort[] = [];
  planSeats.forEach((seat, i) => {
    const s = STATES[status.letters[i] ?? ''];
    if (s === undefined) return;
    const row: SeatStatusShort = {
      x: seat.x,
      y: seat.y,
      si: seat.si,
      s,
      isAvailable: s === 'available',
      isBlocked: blocked.has(i) || boxOffice.has(i),
      isSelected: s === 'heldByMe',
    };
    if (boxOffice.has(i)) row.blockReason = 'boxOffice';
    else if (blocked.has(i)) row.blockReason = 'singleSeat';
    seats.push(row);
  });
  return {
    presentationId: status.presentationId,
    sections: [...status.sections],
    seats,
    serverTime: status.serverTime,
  };
}

/** The plan's seat index by `section:x:y`, to apply seat events to the letters. */
export function seatIndexes(
  planSeats: readonly { si: number; x: number; y: number }[],
): Map<string, number> {
  return new Map(planSeats.map((s, i) => [seatKey(s), i]));
}

/**
 * The cached status with a seat event's changes applied at once, until the next answer says how
 * things are: a hold is someone else's unless the letter says it is this buyer's, a sale sold,
 * a release or expiry free (unless sold). The ETag is dropped when a letter changed, so the next
 * read gets the changes since the version rather than a 304 over a guess.
 */
export function applySeatEvent(
  status: CompactSeatStatus,
  changes: readonly SeatChange[],
  indexes: ReadonlyMap<string, number>,
): CompactSeatStatus {
  const chars = status.letters.split('');
  let changed = false;
  for (const c of changes) {
    const i = indexes.get(seatKey(c));
    if (i === undefined || i >= chars.length) continue;
    const now = chars[i];
    let next = now;
    if (c.state === 'sold') next = 's';
    else if (c.state === 'held') next = now === 'm' ? 'm' : 'o';
    else if (now !== 's') next = 'a';
    if (next !== now) {
      chars[i] = next;
      changed = true;
    }
  }
  return changed ? { ...status, letters: chars.join(''), etag: null } : status;
}
