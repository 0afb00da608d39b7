import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ConfirmSeat } from '../../components/seat-map/ConfirmSeat';
import { AnsweredSeatMap } from '../../components/seat-map/AnsweredSeatMap';
import { seatLabel } from '../../components/seat-map/seatModel';
import { ApiError } from '../../lib/api/client';
import type { EnrollSelectionsResponse } from '../../lib/api/enroll';
import {
  lockMembershipSeat,
  membershipKeys,
  membershipSeatplanQuery,
  type Membership,
  type MembershipSeats,
} from '../../lib/api/memberships';
import type { SeatShort } from '../../lib/api/types';
import { errorMessage } from '../../lib/apiErrors';
import { useCaptcha } from '../../lib/captcha';
import { earliestClock, stamp, type Timed } from '../../lib/countdownClock';
import { localizedName } from '../../lib/localized';
import { HoldClock } from './HoldClock';
import { SeasonScreenings } from './SeasonScreenings';
import { confirmationOf, seatProgress, seatRefusal, seatsBlocked } from './seats';

type Held = Timed<EnrollSelectionsResponse>;

/**
 * "Choose seats" for one seated membership (decision 0043): the season's member-seat map (a seat
 * is free only when it is free in every screening), one seat held in all of them by the server,
 * a tap on another seat moving it there (the server lets the old one go once the new one is
 * held). The seat held is read from the server's answers, the newest of the map's (polled) and
 * the last lock's; the clock runs to the first of its holds to end.
 */
export function SeatsStep({
  membership,
  at,
  count,
  notice,
  onPrevious,
  onNext,
}: {
  membership: Membership & { seats: MembershipSeats };
  at: number;
  count: number;
  /** Why the buyer was sent back here (the cart found no seat held). */
  notice: string | null;
  onPrevious: () => void;
  onNext: () => void;
}) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const captcha = useCaptcha();
  const queryClient = useQueryClient();
  const id = membership.MembershipId;
  const seats = membership.seats;
  const map = useQuery(membershipSeatplanQuery(id));
  const [locked, setLocked] = useState<Held | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(notice);
  const [confirm, setConfirm] = useState<SeatShort | null>(null);

  const fromMap: Held | null = map.data
    ? {
        selections: map.data.selections,
        serverTime: map.data.serverTime,
        receivedAt: map.dataUpdatedAt,
      }
    : null;
  const held = !locked || (fromMap && fromMap.receivedAt > locked.receivedAt) ? fromMap : locked;
  const selections = held?.selections ?? [];
  const clock = held ? earliestClock(held) : null;
  const progress = seatProgress(seats, selections);
  const blocked = seatsBlocked(seats, progress);
  const first = seats.presentations[0];
  const hall = first ? localizedName(lang, first.venueName, first.venueNameEn) : '';
  const name = localizedName(lang, membership.Name, membership.NameEn);

  async function lock(seat: SeatShort, yes = false) {
    setBusy(true);
    setError(null);
    try {
      const answer = await lockMembershipSeat({
        recaptchaToken: await captcha('lockSeat'),
        membershipId: id,
        venueId: first?.venueId ?? 0,
        seatplanId: first?.seatplanId ?? 0,
        sectionId: seat.si,
        x: seat.x,
        y: seat.y,
        ...(yes ? { confirmWheelchair: seat.hc, confirmLimitedView: seat.lv } : {}),
      });
      setLocked(stamp(answer));
    } catch (e) {
      if (e instanceof ApiError && e.code === 'seatConfirmationRequired') setConfirm(seat);
      else {
        const refusal = seatRefusal(e);
        setError(refusal ? t(`membershipSeats.errors.${refusal}`) : errorMessage(t, e));
      }
    } finally {
      setBusy(false);
      void queryClient.invalidateQueries({ queryKey: membershipKeys.seatplan(id) });
    }
  }

  const pick = (seat: SeatShort) => {
    if (confirmationOf(seat)) setConfirm(seat);
    else void lock(seat);
  };

  return (
    <section className="gift-choice membership-seats" aria-labelledby="membership-seats-title">
      <h2 id="membership-seats-title" className="gift-choice__title">
        {t('membershipSeats.title', { name })}
      </h2>
      {count > 1 && (
        <p className="gift-checkout__hint">
          {t('memberships.members.position', { at: at + 1, count })}
        </p>
      )}
      <p className="gift-voucher__meta">
        {t('membershipSeats.lead', { count: seats.presentations.length })}
      </p>
      <HoldClock clock={clock} />
      <p className="membership-seats__chosen" role="status">
        {progress.seat
          ? t('membershipSeats.chosen', {
              row: progress.seat.rowName,
              seat: progress.seat.seatName,
            })
          : t('membershipSeats.none')}
      </p>
      <SeasonScreenings
        seats={seats}
        selections={selections}
        label={t('membershipSeats.screenings')}
      />
      {confirm && (
        <ConfirmSeat
          text={
            confirmationOf(confirm) === 'wheelchair'
              ? t('errors.wheelchairSeatConfirm')
              : t('errors.limitedViewSeatConfirm')
          }
          seatName={seatLabel(t, confirm, 'available')}
          onConfirm={() => {
            const seat = confirm;
            setConfirm(null);
            void lock(seat, true);
          }}
          onCancel={() => setConfirm(null)}
        />
      )}
      <p className="gift-checkout__error membership-seats__error" role="alert">
        {error}
      </p>
      <AnsweredSeatMap map={map} hallName={hall} busy={busy} onPick={pick} />
      <div className="gift-page__bar membership-seats__nav">
        {blocked && (
          <p className="gift-checkout__hint" id="membership-seats-blocked">
            {t(`membershipSeats.blocked.${blocked}`)}
          </p>
        )}
        <button type="button" className="button button--ghost" onClick={onPrevious}>
          {t('memberships.members.previous')}
        </button>
        <button
          type="button"
          className="button button--primary"
          disabled={blocked !== null || busy}
          aria-describedby={blocked ? 'membership-seats-blocked' : undefined}
          onClick={onNext}
        >
          {t('memberships.members.next')}
        </button>
      </div>
    </section>
  );
}
