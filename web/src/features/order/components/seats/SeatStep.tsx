import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Loading } from '../../../../components/ui/Loading';
import { ApiError } from '../../../../lib/api/client';
import { useCaptcha } from '../../../../lib/captcha';
import type {
  LockedSeat,
  Presentation,
  SeatRef,
  SeatShort,
  SeatplanSection,
} from '../../../../lib/api/types';
import { errorMessage } from '../../../../lib/apiErrors';
import { useConfig } from '../../../../lib/config';
import { localizedName } from '../../../../lib/localized';
import { ConfirmSeat } from '../../../../components/seat-map/ConfirmSeat';
import { SeatMap } from '../../../../components/seat-map/SeatMap';
import {
  blockReasons,
  seatLabel,
  stateOf,
  type SeatState,
} from '../../../../components/seat-map/seatModel';
import { formatMoney } from '../../../../lib/format';
import { Countdown } from '../Countdown';
import { SeatsExpired } from './SeatsExpired';
import { useRemaining } from '../../../../lib/useRemaining';
import {
  myHoldsQuery,
  seatKeys,
  seatplanQuery,
  useBestAvailable,
  useLockSeat,
  useSeatsOnTheirWay,
  useUnlockSeat,
} from '../../api/seats';
import { useLiveSeatStatus } from '../../../../lib/api/seats';
import { ticketGroupsQuery } from '../../api/tickets';
import { fullPrice } from '../../model/priceText';
import { isPlainTicket } from '../../model/ticketLines';
import { seatKey } from '../../../../lib/seatAddress';
import './SeatStep.css';
import { ErrorNotice } from '../../../../components/ui/ErrorNotice';

interface Confirmation {
  seat: SeatShort;
  kind: 'wheelchair' | 'limitedView';
}

/** Step 1 of the ticket order: choose seats (or general-admission places) and hold them. */
export function SeatStep({
  presentation,
  onContinue,
}: {
  presentation: Presentation;
  /** Moves on to the tickets step; offered once at least one seat is held. */
  onContinue?: () => void;
}) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const config = useConfig();
  const captcha = useCaptcha();
  const maxSeats = config.raw?.maxSeatsPerTransaction ?? 10;
  const queryClient = useQueryClient();
  const id = presentation.id;

  const plan = useQuery(
    seatplanQuery(presentation.venueId, presentation.seatplanId, captcha, presentation.id),
  );
  const { status, live } = useLiveSeatStatus(id, plan.data?.seatplan.seats);
  const holds = useQuery(myHoldsQuery(id));
  // Only for the seat details' price level: the map works without it.
  const ticketGroups = useQuery(ticketGroupsQuery(id));

  const lockSeat = useLockSeat(id, captcha);
  const unlockSeat = useUnlockSeat(id, captcha);
  const best = useBestAvailable(id, captcha);
  const busy = useSeatsOnTheirWay(id);
  const [confirm, setConfirm] = useState<Confirmation | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [quantity, setQuantity] = useState(2);

  const holdsData = holds.data;
  const lineKeys = useMemo(() => new Set((holdsData?.seats ?? []).map(seatKey)), [holdsData]);

  const states = useMemo(() => {
    const map = new Map<string, SeatState>();
    for (const s of status.data?.seats ?? []) map.set(seatKey(s), stateOf(s));
    // The lock and unlock answers are newer than the last poll.
    for (const key of lineKeys) map.set(key, 'selected');
    for (const [key, state] of map) {
      if (state === 'selected' && holdsData && !lineKeys.has(key)) map.set(key, 'available');
    }
    return map;
  }, [status.data, lineKeys, holdsData]);

  const reasons = useMemo(() => blockReasons(status.data?.seats ?? []), [status.data]);

  const priceLevelOf = (seat: SeatShort): string | null => {
    const group = ticketGroups.data?.ticketGroups.find((g) => g.id === seat.tg);
    if (!group) return null;
    const name = localizedName(lang, group.name, group.nameEn);
    const prices = group.tickets.filter(isPlainTicket).map(fullPrice);
    if (prices.length === 0) return name;
    const from = formatMoney(Math.min(...prices), lang, group.tickets[0].currency);
    return t('seatMap.priceLevel', { level: name, price: from });
  };

  const remaining = useRemaining(
    holdsData?.seats.length ? holdsData.expiresAt : null,
    holdsData?.serverTime ?? '',
    holdsData?.receivedAt ?? 0,
  );

  const sections = plan.data?.seatplan.sections ?? [];
  const sectionName = (sectionId: number) => {
    const section = sections.find((s) => s.id === sectionId);
    return section ? localizedName(lang, section.name, section.nameEn) : '';
  };

  const refFor = (sectionId: number, x: number, y: number, ticketGroupId?: number): SeatRef => ({
    PresentationId: id,
    VenueId: presentation.venueId,
    VenueSeatplanId: presentation.seatplanId,
    VenueSectionId: sectionId,
    TicketGroupId: ticketGroupId ?? null,
    XCoordinate: x,
    YCoordinate: y,
  });

  const refreshStatus = () => queryClient.invalidateQueries({ queryKey: seatKeys.status(id) });

  const explain = (error: unknown) => {
    // Spec 8: a 400 on lock or unlock means the captcha must be done again.
    if (error instanceof ApiError && error.status === 400)
      setMessage(t('errors.recaptchaRequired'));
    else setMessage(errorMessage(t, error));
  };

  const lock = (
    ref: SeatRef,
    key: string,
    confirm: { confirmWheelchair?: boolean; confirmLimitedView?: boolean } = {},
  ) => {
    setMessage(null);
    lockSeat.mutate({ ref, key, confirm }, { onError: explain });
  };

  const unlock = (ref: SeatRef, key: string) => {
    setMessage(null);
    unlockSeat.mutate({ ref, key }, { onError: explain });
  };

  const onSeatActivate = (seat: SeatShort, state: SeatState) => {
    const key = seatKey(seat);
    if (busy.has(key)) return;
    if (state === 'selected') {
      unlock(refFor(seat.si, seat.x, seat.y, seat.tg), key);
    } else if (seat.hc || seat.lv) {
      setConfirm({ seat, kind: seat.hc ? 'wheelchair' : 'limitedView' });
    } else {
      lock(refFor(seat.si, seat.x, seat.y, seat.tg), key);
    }
  };

  const confirmSeat = () => {
    if (!confirm) return;
    const { seat } = confirm;
    setConfirm(null);
    lock(refFor(seat.si, seat.x, seat.y, seat.tg), seatKey(seat), {
      confirmWheelchair: seat.hc || undefined,
      confirmLimitedView: seat.lv || undefined,
    });
  };

  const findBest = () => {
    setMessage(null);
    best.mutate(quantity, {
      onSuccess: (answer) => {
        const match = answer.matches.find((m) => m.presentationId === id && m.isLocked);
        if (!match) setMessage(t('errors.NOT_ENOUGH_SEATS'));
      },
      onError: explain,
    });
  };

  const startOver = () => {
    setMessage(null);
    void queryClient.invalidateQueries({ queryKey: seatKeys.holds(id) });
    void refreshStatus();
  };

  if (plan.isPending || status.isPending || holds.isPending) return <Loading />;
  if (plan.isError || status.isError || holds.isError) {
    return (
      <ErrorNotice
        title={t('order.seatsLoadError')}
        headingLevel={2}
        error={plan.error ?? status.error ?? holds.error}
      />
    );
  }

  const seatplan = plan.data.seatplan;
  const gaSections = seatplan.sections.filter((s) => s.kind === 'ga');
  const sectionStatus = (sectionId: number) =>
    status.data?.sections.find((s) => s.id === sectionId);
  const soldOut = seatplan.sections.filter(
    (s) => s.kind === 'reserved' && sectionStatus(s.id)?.soldOut,
  );
  const held = holdsData?.seats ?? [];
  const seatFor = (h: LockedSeat) =>
    seatplan.seats.find((s) => s.si === h.sectionId && s.x === h.x && s.y === h.y);
  const expired = remaining !== null && remaining <= 0;
  const gaOnly = seatplan.seats.length === 0 && gaSections.length > 0;
  const continueWhy =
    busy.size > 0
      ? null
      : expired
        ? t('order.why.expired')
        : held.length === 0
          ? t(gaOnly ? 'order.why.noPlaces' : 'order.why.noSeats')
          : null;

  return (
    <section className="seat-step" aria-labelledby="seat-step-title" data-live={live}>
      <h2 id="seat-step-title" className="seat-step__title">
        {t(gaOnly ? 'order.seats.titleGa' : 'order.seats.title')}
      </h2>

      <div className="seat-step__layout">
        <div className="seat-step__map">
          {seatplan.seats.length > 0 && (
            <SeatMap
              plan={seatplan}
              states={states}
              busy={busy}
              onSeatActivate={onSeatActivate}
              reasons={reasons}
              priceLevelOf={priceLevelOf}
              name={localizedName(lang, presentation.venueName, presentation.venueNameEn)}
            />
          )}
          {soldOut.length > 0 && (
            <p className="seat-step__sold-out">
              {t('order.seats.soldOutSections', {
                sections: soldOut.map((s) => localizedName(lang, s.name, s.nameEn)).join(', '),
              })}
            </p>
          )}
        </div>

        <div className="seat-step__side">
          {confirm && (
            <ConfirmSeat
              text={
                confirm.kind === 'wheelchair'
                  ? t('errors.wheelchairSeatConfirm')
                  : t('errors.limitedViewSeatConfirm')
              }
              seatName={seatLabel(t, confirm.seat, 'available')}
              onConfirm={confirmSeat}
              onCancel={() => setConfirm(null)}
            />
          )}

          <div role="alert" className="seat-step__alert" hidden={!message && !expired}>
            {expired ? (
              <SeatsExpired onRefresh={startOver} />
            ) : (
              message && <p className="seat-step__alert-text">{message}</p>
            )}
          </div>

          <div className="seat-step__panel">
            <h3 className="seat-step__panel-title">{t('order.seats.selection')}</h3>
            {remaining !== null && remaining > 0 && <Countdown ms={remaining} />}
            {held.length === 0 ? (
              <p className="seat-step__muted">
                {t(gaOnly ? 'order.seats.noneSelectedGa' : 'order.seats.noneSelected')}
              </p>
            ) : (
              <ul className="seat-step__held">
                {held.map((h) => {
                  const seat = seatFor(h);
                  const key = seatKey(h);
                  const where = h.rowName
                    ? t('order.seats.heldSeat', { row: h.rowName, seat: h.seatName })
                    : t('order.seats.heldPlace', { place: h.seatName });
                  return (
                    <li key={key} className="seat-step__held-item">
                      <span>
                        <span className="seat-step__held-section">{sectionName(h.sectionId)}</span>{' '}
                        {where}
                      </span>
                      <button
                        type="button"
                        className="tool-button"
                        disabled={busy.has(key)}
                        aria-label={t('order.seats.release', {
                          seat: `${sectionName(h.sectionId)} ${where}`,
                        })}
                        onClick={() => unlock(refFor(h.sectionId, h.x, h.y, seat?.tg), key)}
                      >
                        ×
                      </button>
                    </li>
                  );
                })}
              </ul>
            )}
            {held.length > 0 && (
              <p className="seat-step__count">{t('order.seats.count', { count: held.length })}</p>
            )}
            {onContinue && (
              <p className="seat-step__continue">
                <button
                  type="button"
                  className="button button--primary"
                  disabled={held.length === 0 || expired || busy.size > 0}
                  aria-describedby={continueWhy ? 'seat-continue-why' : undefined}
                  onClick={onContinue}
                >
                  {t('order.continue')}
                </button>
              </p>
            )}
            {onContinue && continueWhy && (
              <p id="seat-continue-why" className="continue-why">
                {continueWhy}
              </p>
            )}
          </div>

          {seatplan.seats.length > 0 && (
            <div className="seat-step__panel">
              <h3 className="seat-step__panel-title">{t('order.seats.bestTitle')}</h3>
              <div className="seat-step__best">
                <label className="seat-step__field">
                  <span>{t('order.seats.quantity')}</span>
                  <select value={quantity} onChange={(e) => setQuantity(Number(e.target.value))}>
                    {Array.from({ length: maxSeats }, (_, i) => i + 1).map((n) => (
                      <option key={n} value={n}>
                        {n}
                      </option>
                    ))}
                  </select>
                </label>
                <button
                  type="button"
                  className="button button--ghost"
                  onClick={findBest}
                  disabled={best.isPending}
                >
                  {t('order.seats.findBest')}
                </button>
              </div>
            </div>
          )}

          {gaSections.map((section) => (
            <GaPicker
              key={section.id}
              section={section}
              name={localizedName(lang, section.name, section.nameEn)}
              held={held.filter((h) => h.sectionId === section.id)}
              remaining={sectionStatus(section.id)?.remaining ?? 0}
              busy={busy.has(`ga:${section.id}`)}
              onAdd={() =>
                lock(refFor(section.id, 0, 0, section.ticketGroupId), `ga:${section.id}`)
              }
              onRemove={(place) =>
                unlock(
                  refFor(section.id, place.x, place.y, section.ticketGroupId),
                  `ga:${section.id}`,
                )
              }
            />
          ))}
        </div>
      </div>
    </section>
  );
}

function GaPicker({
  section,
  name,
  held,
  remaining,
  busy,
  onAdd,
  onRemove,
}: {
  section: SeatplanSection;
  name: string;
  held: LockedSeat[];
  remaining: number;
  busy: boolean;
  onAdd: () => void;
  onRemove: (place: LockedSeat) => void;
}) {
  const { t } = useTranslation();
  const labelId = `ga-${section.id}`;
  const soldOut = remaining === 0 && held.length === 0;
  return (
    <div className="seat-step__panel" role="group" aria-labelledby={labelId}>
      <h3 id={labelId} className="seat-step__panel-title">
        {name}
      </h3>
      <p className="seat-step__muted">
        {soldOut ? t('order.seats.soldOut') : t('order.seats.gaRemaining', { count: remaining })}
      </p>
      <div className="seat-step__stepper">
        <button
          type="button"
          className="tool-button"
          aria-label={t('order.seats.gaLess', { section: name })}
          disabled={busy || held.length === 0}
          onClick={() => onRemove(held[held.length - 1])}
        >
          −
        </button>
        <output className="seat-step__quantity" aria-live="polite">
          {t('order.seats.gaHeld', { count: held.length })}
        </output>
        <button
          type="button"
          className="tool-button"
          aria-label={t('order.seats.gaMore', { section: name })}
          disabled={busy || remaining === 0}
          onClick={onAdd}
        >
          +
        </button>
      </div>
    </div>
  );
}
