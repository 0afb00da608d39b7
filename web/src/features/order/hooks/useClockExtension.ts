// The step's clock and what the buyer can do about it: the one extension a step allows (spec
// section 4: the countdown "offers extension or refresh"), asked for in the last minute or once
// the time is out. Before zero the server extends the checkout (POST /seats/extend); at zero the
// checkout is over, so the extension locks again the seats still free (the normal lock call,
// which starts a new checkout) and names those another buyer took meanwhile.
import type { TFunction } from 'i18next';
import { useCallback, useContext, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api/client';
import { errorMessage } from '../../../lib/apiErrors';
import { captchaTokenFor } from '../../../lib/captcha';
import { ConfigContext } from '../../../lib/config';
import type { LockedSeat, SeatRef, SeatplanV2Response } from '../../../lib/api/types';
import { seatKeys, useExtendHold, useLockSeat } from '../api/seats';
import { stamp } from '../../../lib/countdownClock';
import type { Holds } from '../model/holds';
import type { OrderState } from '../model/orderState';
import { seatKey } from '../../../lib/seatAddress';
import { useOrder } from './orderContext';

/** A seat to take back, with the ticket group it was locked under when that is known. */
interface Place {
  seat: LockedSeat;
  ticketGroupId: number | null;
}

/** The refusals that mean this step's extension is gone (spent, or past the hold's ceiling). */
const REFUSALS = new Set(['extensionNotAllowed', 'holdLimitReached']);

/** The last-minute extension: whether it is still there, and asking for it. */
export function useClockExtension() {
  const { presentation, state, dispatch } = useOrder();
  const { t } = useTranslation();
  const extendHold = useExtendHold(presentation.id);
  const [message, setMessage] = useState<string | null>(null);
  const [given, setGiven] = useState<string | null>(null);
  const available = state.extendedStep === null;

  const extend = useCallback(() => {
    setMessage(null);
    extendHold.mutate(undefined, {
      onSuccess: (answer) => {
        dispatch({ type: 'extended', answer: stamp(answer) });
        setGiven(t('order.clock.extended'));
      },
      onError: (error) => {
        if (error instanceof ApiError && REFUSALS.has(error.code)) {
          dispatch({ type: 'extensionRefused' });
        }
        setMessage(extensionError(t, error));
      },
    });
  }, [extendHold, dispatch, t]);

  return {
    available,
    extend,
    busy: extendHold.isPending,
    message,
    /** "More time added": a toast's text, until `dismiss`. */
    given,
    dismiss: useCallback(() => setGiven(null), []),
  };
}

function extensionError(t: TFunction, error: unknown): string {
  // From the extension, holdLimitReached is the hold's ceiling, not the number of seats.
  if (error instanceof ApiError && error.code === 'holdLimitReached') {
    return t('order.clock.ceilingReached');
  }
  return errorMessage(t, error);
}

/**
 * The seats the order had when its time ran out: the holds as this page last knew them, else
 * (the holds were asked for again and are gone) the seats of the tickets chosen.
 */
export function placesOf(state: OrderState, holds: Holds | undefined): Place[] {
  const lines = [...state.draft.lines, ...(state.choice?.lines ?? [])];
  const groupOf = (seat: LockedSeat) =>
    lines.find((l) => l.key === seatKey(seat))?.ticketGroupId ?? null;
  const chosen = state.choice?.lines.length ? state.choice.lines : state.draft.lines;
  const seats = holds?.seats.length ? holds.seats : chosen.map((l) => l.seat);
  return seats.map((seat) => ({ seat, ticketGroupId: groupOf(seat) }));
}

/** At zero: take back the seats still free, in one go, and say which were lost. */
export function useReclaim() {
  const { presentation, state, dispatch } = useOrder();
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  // The site's captcha; a step shown on its own (its tests) has no configuration around it.
  const config = useContext(ConfigContext)?.raw;
  const captcha = useCallback((action: string) => captchaTokenFor(config, action), [config]);
  const id = presentation.id;
  const lockSeat = useLockSeat(id, captcha);
  // Taken when the time ran out: a later look at the holds finds none.
  const [places] = useState(() =>
    placesOf(state, queryClient.getQueryData<Holds>(seatKeys.holds(id))),
  );
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<string | null>(null);

  const reclaim = useCallback(async () => {
    setBusy(true);
    setMessage(null);
    const plan = queryClient.getQueryData<SeatplanV2Response>(
      seatKeys.plan(presentation.venueId, presentation.seatplanId),
    )?.seatplan;
    const groupOf = ({ seat, ticketGroupId }: Place) =>
      ticketGroupId ??
      plan?.seats.find((s) => s.si === seat.sectionId && s.x === seat.x && s.y === seat.y)?.tg ??
      null;
    let kept = 0;
    const lost: string[] = [];
    let lastError: unknown = null;
    // One at a time, in the order they were chosen, as the buyer took them the first time.
    for (const place of places) {
      const { seat } = place;
      const ref: SeatRef = {
        PresentationId: id,
        VenueId: presentation.venueId,
        VenueSeatplanId: presentation.seatplanId,
        VenueSectionId: seat.sectionId,
        TicketGroupId: groupOf(place),
        XCoordinate: seat.x,
        YCoordinate: seat.y,
      };
      try {
        await lockSeat.mutateAsync({
          ref,
          key: seatKey(seat),
          // The buyer confirmed these kinds of seat when first choosing them.
          confirm: {
            confirmWheelchair: seat.seatKinds.includes('wheelchair') || undefined,
            confirmLimitedView: seat.seatKinds.includes('limitedView') || undefined,
          },
        });
        kept += 1;
      } catch (error) {
        lost.push(seatName(t, seat));
        if (!(error instanceof ApiError && error.code === 'lock_seat_error')) lastError = error;
      }
    }
    setBusy(false);
    if (kept === 0 && lastError !== null && places.length > 0) {
      // Nothing came back for a reason other than the seats being taken: say it, stay here.
      setMessage(errorMessage(t, lastError));
      return;
    }
    dispatch({ type: 'reclaimed', kept, lost });
    void queryClient.invalidateQueries({ queryKey: seatKeys.holds(id) });
  }, [places, queryClient, presentation, id, lockSeat, dispatch, t]);

  return {
    /** An extension is still there for this step, and there are seats to take back. */
    available: state.extendedStep === null && places.length > 0,
    reclaim,
    busy,
    message,
  };
}

function seatName(t: TFunction, seat: LockedSeat): string {
  return seat.rowName
    ? t('order.seats.heldSeat', { row: seat.rowName, seat: seat.seatName })
    : t('order.seats.heldPlace', { place: seat.seatName });
}
